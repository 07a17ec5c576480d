package dev.once.verify.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
      assertEquals(201, r.status());
      assertEquals("{\"id\":\"pay_1\"}", r.bodyText());
      assertEquals("true", r.header("idempotent-replayed"));
      assertNull(r.header("Location"));
      assertEquals(List.of("{\"amount\":\"0.01\"}"), requestBodies);
    }
  }

  @Test
  void readsAChunkedBody() throws IOException {
    try (HttpConnection http = connection()) {
      HttpResponse r = http.exchange(post("/chunked", "{}"));
      assertEquals(200, r.status());
      assertEquals("chunked", r.header("Transfer-Encoding"));
      assertEquals(18 + 20_000, r.bodyLength());
      assertTrue(r.bodyText().startsWith("part0-part1-part2-"));
    }
  }

  @Test
  void keepsTheConnectionAcrossRequests() throws IOException {
    try (HttpConnection http = connection()) {
      for (int i = 0; i < 3; i++) {
        assertEquals(201, http.exchange(post("/fixed", "{\"i\":" + i + "}")).status());
        assertEquals(200, http.exchange(post("/chunked", "{}")).status());
      }
      assertEquals(1, http.connects());
      assertEquals(6, clientPorts.size());
      assertEquals(1, clientPorts.stream().distinct().count(), "one socket: " + clientPorts);
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
            assertThrows(HttpProtocolException.class, () -> http.exchange(request));
        assertEquals("malformed status line: 'SMTP ready'", status.getMessage());
        HttpProtocolException header =
            assertThrows(HttpProtocolException.class, () -> http.exchange(request));
        assertEquals("malformed header line: 'no colon here'", header.getMessage());
        assertEquals("ok", http.exchange(request).bodyText());
        assertEquals(3, http.connects());
      }
      answerer.join();
    }
  }

  @Test
  void requestBytesWriteDecimalsWithoutStrings() {
    RequestBytes out = new RequestBytes();
    out.appendDecimal(0).appendAscii(",").appendDecimal(-42).appendAscii(",");
    out.appendDecimal(Long.MAX_VALUE);
    assertEquals("0,-42," + Long.MAX_VALUE, out.toString());
    assertEquals("x", out.reset().appendAscii("x").toString());
  }
}
