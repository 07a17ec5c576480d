package dev.once.spring.outbox.shedding;

import static dev.once.spring.outbox.shedding.LoadSheddingTestApplication.CHARGE;
import static dev.once.spring.outbox.shedding.LoadSheddingTestApplication.CHARGED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.spring.outbox.OutboxLoadShedding;
import dev.once.testing.OldBacklog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Load shedding end to end, through a real server on a database of its own: an old backlog refuses
 * new work with 503 {@code outbox-overloaded} and {@code Retry-After}, leaving nothing written and
 * the key free; the relay's own appends go through meanwhile; once the backlog is gone, the same
 * request with the same key executes. The application maps no exception itself.
 */
@SpringBootTest(
    classes = LoadSheddingTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.outbox.load-shedding.enabled=true",
      "once.outbox.load-shedding.max-due-age=2s",
      "once.outbox.load-shedding.sample-interval=50ms",
      "once.outbox.relay.poll-interval=100ms"
    })
class LoadSheddingTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /** Rows of a type no handler takes: they wait, as rows do behind a relay that cannot keep up. */
  private static final String BACKLOG = "test.backlog";

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    LoadSheddingTestApplication.freshDatabase(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired OutboxLoadShedding shedding;

  private final String client = "client-" + UUID.randomUUID();

  @AfterEach
  void noBacklog() {
    new OldBacklog(dataSource, BACKLOG).clear();
    await().atMost(PATIENCE).until(() -> !shedding.isShedding());
  }

  private void oldBacklog() {
    new OldBacklog(dataSource, BACKLOG).add(50);
    await().atMost(PATIENCE).until(shedding::isShedding);
  }

  private HttpResponse<String> post(String path, String key) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("X-Client", client)
            .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":1}"));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return send(request.build());
  }

  private HttpResponse<String> get(String path) {
    return send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build());
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private long count(String sql, Object... parameters) {
    JdbcClient.StatementSpec statement = jdbc.sql(sql);
    for (Object p : parameters) {
      statement = statement.param(p);
    }
    return statement.query(Long.class).single();
  }

  private long effects(String tag) {
    return count("SELECT count(*) FROM effect WHERE tag = ?", tag);
  }

  private long charges(String tag) {
    return count(
        "SELECT count(*) FROM once.outbox WHERE type = ? AND aggregate_id = ?", CHARGE, tag);
  }

  private long storedKeys(String key) {
    return count(
        "SELECT count(*) FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?",
        client,
        key);
  }

  private static void assertOverloaded(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    // One hour past a limit of 2 s: come back after the limit, not after an hour.
    assertThat(r.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(r.body())
        .isEqualTo(
            "{\"type\":\"https://once.dev/problems/outbox-overloaded\",\"title\":\"Outbox"
                + " overloaded\",\"status\":503,\"detail\":\"The service has more work queued than"
                + " it can do in time and took nothing of this request; send it again after"
                + " Retry-After.\"}");
  }

  @Test
  void anOldBacklogRefusesTheRequestLeavingNothingAndTheSameKeyExecutesOnceItIsGone() {
    String tag = "t" + UUID.randomUUID().toString().replace("-", "");
    String key = "order-" + tag;
    oldBacklog();

    HttpResponse<String> refused = post("/api/orders/" + tag, key);

    assertOverloaded(refused);
    assertThat(refused.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(effects(tag)).as("the business row rolled back").isZero();
    assertThat(charges(tag)).as("nothing appended").isZero();
    assertThat(storedKeys(key)).as("a 503 is never stored: the key is free").isZero();

    new OldBacklog(dataSource, BACKLOG).clear();
    await().atMost(PATIENCE).until(() -> !shedding.isShedding());
    HttpResponse<String> retried = post("/api/orders/" + tag, key);

    assertThat(retried.statusCode()).isEqualTo(201);
    assertThat(retried.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(retried.body()).isEqualTo("{\"tag\":\"" + tag + "\"}");
    assertThat(effects(tag)).isEqualTo(1);
    assertThat(charges(tag)).isEqualTo(1);
    assertThat(storedKeys(key)).isEqualTo(1);
  }

  @Test
  void aRequestWithoutAKeyIsRefusedTooAndAGetIsNeverShed() {
    String tag = "t" + UUID.randomUUID().toString().replace("-", "");
    oldBacklog();

    assertOverloaded(post("/open/orders/" + tag, null));
    assertThat(effects(tag)).isZero();
    assertThat(charges(tag)).isZero();

    HttpResponse<String> read = get("/api/effects/" + tag);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("0");
  }

  @Test
  void theRelaysOwnAppendsAreNeverShed() {
    String tag = "t" + UUID.randomUUID().toString().replace("-", "");
    oldBacklog();

    // A charge that committed before the overload (inserted directly: an append would be shed).
    jdbc.sql(
            """
            INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                     created_at)
            VALUES (gen_random_uuid(), ?, ?, '{}', now(), now())
            """)
        .param(CHARGE)
        .param(tag)
        .update();

    await()
        .atMost(PATIENCE)
        .until(
            () ->
                count(
                        "SELECT count(*) FROM once.outbox WHERE type = ? AND aggregate_id = ?"
                            + " AND state = 'delivered' AND attempts = 1",
                        CHARGE,
                        tag)
                    == 1);
    assertThat(
            count(
                "SELECT count(*) FROM once.outbox WHERE type = ? AND aggregate_id = ?",
                CHARGED,
                tag))
        .as("the handler's append went through while new work was refused")
        .isEqualTo(1);
    assertThat(shedding.isShedding()).isTrue();
  }
}
