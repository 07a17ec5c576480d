package dev.once.verify.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 1, unit = TimeUnit.MINUTES) // it reads from sockets
class HttpConnectionTest {
  private HttpServer server;
  private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();
  private final List<String> requestBodies = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/fixed",
        exchange -> {
          clientPorts.add(exchange.getRemoteAddress().getPort());
          requestBodies.add(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] body = "{\"id\":\"pay_1\"}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Idempotent-Replayed", "true");
          exchange.sendResponseHeaders(201, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.createContext(
        "/chunked",
        exchange -> {
          clientPorts.add(exchange.getRemoteAddress().getPort());
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, 0); // 0: chunked
          try (OutputStream out = exchange.getResponseBody()) {
            for (int i = 0; i < 3; i++) {
              out.write(("part" + i + "-").getBytes(StandardCharsets.UTF_8));
              out.flush();
            }
            out.write(new byte[20_000]); // larger than the connection's buffer
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private HttpConnection connection() {
    return new HttpConnection("localhost", server.getAddress().getPort(), 5_000);
  }

  private static RequestBytes post(String path, String body) {
    byte[] head = HttpRequest.head("POST", path, "localhost", "Content-Type: application/json");
    return HttpRequest.write(new RequestBytes(), head, body);
  }

  @Test
  void readsAContentLengthBodyAndHeaders() throws IOException {
    try (HttpConnection http = connection()) {
      HttpResponse r = http.exchange(post("/fixed", "{\"amount\":\"0.01\"}"));
      assertThat(r.status()).isEqualTo(201);
      assertThat(r.bodyText()).isEqualTo("{\"id\":\"pay_1\"}");
      assertThat(r.header("idempotent-replayed")).isEqualTo("true");
      assertThat(r.header("Location")).isNull();
      assertThat(requestBodies).isEqualTo(List.of("{\"amount\":\"0.01\"}"));
    }
  }

  @Test
  void readsAChunkedBody() throws IOException {
    try (HttpConnection http = connection()) {
      HttpResponse r = http.exchange(post("/chunked", "{}"));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.header("Transfer-Encoding")).isEqualTo("chunked");
      assertThat(r.bodyLength()).isEqualTo(18 + 20_000);
      assertThat(r.bodyText()).startsWith("part0-part1-part2-");
    }
  }

  @Test
  void keepsTheConnectionAcrossRequests() throws IOException {
    try (HttpConnection http = connection()) {
      for (int i = 0; i < 3; i++) {
        assertThat(http.exchange(post("/fixed", "{\"i\":" + i + "}")).status()).isEqualTo(201);
        assertThat(http.exchange(post("/chunked", "{}")).status()).isEqualTo(200);
      }
      assertThat(http.connects()).isEqualTo(1);
      assertThat(clientPorts.size()).isEqualTo(6);
      assertThat(clientPorts.stream().distinct().count())
          .as("one socket: " + clientPorts)
          .isEqualTo(1);
    }
  }

  @Test
  void aMalformedAnswerIsAClearErrorAndTheNextExchangeReconnects() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread answerer =
          new Thread(
              () -> {
                for (String answer :
                    List.of(
                        "SMTP ready\r\n\r\n",
                        "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
                        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")) {
                  try (Socket s = listener.accept()) {
                    InputStream in = s.getInputStream();
                    in.read(new byte[4096]);
                    s.getOutputStream().write(answer.getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                    in.read(new byte[4096]); // until the client closes
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      answerer.start();
      try (HttpConnection http = new HttpConnection("localhost", listener.getLocalPort(), 5_000)) {
        RequestBytes request = post("/", "{}");
        HttpProtocolException status =
            catchThrowableOfType(HttpProtocolException.class, () -> http.exchange(request));
        assertThat(status.getMessage()).isEqualTo("malformed status line: 'SMTP ready'");
        HttpProtocolException header =
            catchThrowableOfType(HttpProtocolException.class, () -> http.exchange(request));
        assertThat(header.getMessage()).isEqualTo("malformed header line: 'no colon here'");
        assertThat(http.exchange(request).bodyText()).isEqualTo("ok");
        assertThat(http.connects()).isEqualTo(3);
      }
      answerer.join();
    }
  }

  @Test
  void requestBytesWriteDecimalsWithoutStrings() {
    RequestBytes out = new RequestBytes();
    out.appendDecimal(0).appendAscii(",").appendDecimal(-42).appendAscii(",");
    out.appendDecimal(Long.MAX_VALUE);
    assertThat(out.toString()).isEqualTo("0,-42," + Long.MAX_VALUE);
    assertThat(out.reset().appendAscii("x").toString()).isEqualTo("x");
  }
}
