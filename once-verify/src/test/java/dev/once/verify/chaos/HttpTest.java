package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.once.client.Retrier;
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
    return server(name, 200, new ArrayList<>());
  }

  /** A server that answers {@code status} and its name, and records the keys it got. */
  private String server(String name, int status, List<String> keys) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = name.getBytes(StandardCharsets.UTF_8);
          if (exchange.getRequestHeaders().containsKey("Idempotency-Key")) {
            exchange.getResponseHeaders().add("Idempotent-Replayed", "true");
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
          }
          exchange.sendResponseHeaders(status, body.length);
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

  @Test
  void theAttemptsOfOneCallTakeTheShopsInTurnUnderOneKey() throws Exception {
    List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
    Http http =
        new Http(
            List.of(server("down", 503, keys), server("up", 201, keys)), Duration.ofSeconds(5));
    List<Duration> waits = new ArrayList<>();
    Retrier retrier = Retrier.builder().sleeper(waits::add).build();
    List<Integer> seen = new ArrayList<>();

    Http.Answer a = http.call(retrier, "/x", "t", "k-1", "{}", answer -> seen.add(answer.status()));

    assertThat(a.status()).isEqualTo(201);
    assertThat(a.body()).isEqualTo("up");
    assertThat(seen).containsExactly(503, 201);
    assertThat(keys).containsExactly("k-1", "k-1");
    assertThat(waits).hasSize(1);
  }
}
