package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Several shops behind no balancer: each request goes to the next one, so a retry moves on. */
@Timeout(value = 1, unit = TimeUnit.MINUTES) // it reads from sockets
class HttpTest {
  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  /** A server that answers its own name, with the replay header when asked for it. */
  private String server(String name) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = name.getBytes(StandardCharsets.UTF_8);
          if (exchange.getRequestHeaders().containsKey("Idempotency-Key")) {
            exchange.getResponseHeaders().add("Idempotent-Replayed", "true");
          }
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    servers.add(server);
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @Test
  void requestsTakeTheShopsInTurn() throws Exception {
    Http http = new Http(List.of(server("one"), server("two")), Duration.ofSeconds(5));
    List<String> answered = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      answered.add(http.get("/x", null).body());
    }
    answered.add(http.post("/x", "t", "k", "{}").body());
    assertThat(answered).isEqualTo(List.of("one", "two", "one", "two", "one"));
  }

  @Test
  void oneShopGetsEverythingAndTheReplayHeaderIsRead() throws Exception {
    Http http = new Http(server("only"), Duration.ofSeconds(5));
    assertThat(http.get("/x", null).body()).isEqualTo("only");
    Http.Answer a = http.post("/x", null, "key-1", "{}");
    assertThat(a.body()).isEqualTo("only");
    assertThat(a.replayed()).isTrue();
  }
}
