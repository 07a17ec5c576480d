package dev.once.spring.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.jpa.JpaTestApplication.Hooks;
import dev.once.spring.jpa.JpaTestApplication.ReserveStock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Once in an application on Spring Data JPA and Hibernate, with Boot's JpaTransactionManager: the
 * key claim, the entities a repository saves, the outbox row and the stored answer are one
 * transaction on one connection; a refusal, a failure or a failed flush leaves none of the
 * handler's writes. The inbox runs a JPA consumer in the transaction of its inbox record.
 */
@SpringBootTest(
    classes = JpaTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      // The test resources exclude JPA for the other test applications; this one has it.
      "spring.autoconfigure.exclude=",
      "spring.sql.init.schema-locations=classpath:schema.sql,classpath:jpa-schema.sql",
      // Rows stay where the handler and the consumer left them: nothing relays the events.
      "once.outbox.relay.enabled=false",
      // A context of its own: a small pool, closed after the class, leaves the server's
      // connections to the other test classes.
      "spring.datasource.hikari.maximum-pool-size=8"
    })
@DirtiesContext
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JpaApplicationTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ExecutorService THREADS = Executors.newFixedThreadPool(4);

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    JpaTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired DataSource dataSource;
  @Autowired PlatformTransactionManager transactions;
  @Autowired Inbox inbox;

  /** The inbox consumer Once registered for the typed listener {@link ReserveStock}. */
  @Autowired
  @Qualifier("onceListener:" + ReserveStock.NAME)
  InboxConsumer reserveStock;

  private final String client = "client-" + UUID.randomUUID();

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void theTransactionManagerIsBootsJpaOneOnTheApplicationsDataSource() {
    assertThat(transactions).isInstanceOf(JpaTransactionManager.class);
    assertThat(((JpaTransactionManager) transactions).getDataSource()).isSameAs(dataSource);
  }

  @Test
  void aRetryIsAnsweredFromTheStoreAndWritesNothing() {
    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + tag;

    HttpResponse<String> first = send(path, "k-replay");
    HttpResponse<String> retry = send(path, "k-replay");

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.headers().firstValue("Location"))
        .isEqualTo(first.headers().firstValue("Location"));
    assertThat(Hooks.returned(tag)).isEqualTo(1);
    assertThat(orders(tag)).isEqualTo(1);
    assertThat(outboxRows(tag)).isEqualTo(1);
    assertThat(storedKeys("k-replay")).isEqualTo(1);
  }

  /**
   * The handler's JdbcTemplate, the repository's insert, the outbox row and the key's row are one
   * transaction: the handler's {@code txid_current()} is the transaction id that wrote each row.
   */
  @Test
  void theKeyTheEntityAndTheOutboxRowAreWrittenByOneTransaction() {
    String tag = tag();
    // Not flushed by the handler: Hibernate inserts the order at the commit's flush, after the
    // handler read the transaction id.
    assertThat(send("/jpa/orders/" + tag + "?ref=" + tag + "&flush=false", "k-tx").statusCode())
        .isEqualTo(201);

    long xid = Hooks.TXID.get(tag) % (1L << 32);
    assertThat(
            jdbc.sql("SELECT xmin::text::bigint FROM jpa_placed_order WHERE tag = ?")
                .param(tag)
                .query(Long.class)
                .single())
        .isEqualTo(xid);
    assertThat(
            jdbc.sql("SELECT xmin::text::bigint FROM once.outbox WHERE aggregate_id = ?")
                .param(tag)
                .query(Long.class)
                .single())
        .isEqualTo(xid);
    assertThat(
            jdbc.sql(
                    "SELECT xmin::text::bigint FROM once.idempotency_key"
                        + " WHERE client_id = ? AND idem_key = ?")
                .param(client)
                .param("k-tx")
                .query(Long.class)
                .single())
        .isEqualTo(xid);
  }

  @Test
  void duplicatesWhileTheFirstIsInsideItsTransactionAre409AndOneOrderIsWritten() throws Exception {
    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + tag;
    CountDownLatch entered = new CountDownLatch(1);
    Hooks.ENTERED.put(tag, entered);
    Hooks.RELEASE.put(tag, new CountDownLatch(1));
    CompletableFuture<HttpResponse<String>> first =
        CompletableFuture.supplyAsync(() -> send(path, "k-dup"), THREADS);
    entered.await();

    // The first holds the key, its order flushed and its event appended, in its open transaction.
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> duplicates = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      duplicates.add(
          CompletableFuture.supplyAsync(
              () -> {
                awaitQuietly(start);
                return send(path, "k-dup");
              },
              THREADS));
    }
    start.countDown();
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> duplicate : duplicates) {
      answers.add(duplicate.get());
    }
    Hooks.RELEASE.get(tag).countDown();

    for (HttpResponse<String> duplicate : answers) {
      assertProblem(duplicate, 409, "idempotency-key-in-use");
    }
    assertThat(first.get().statusCode()).isEqualTo(201);
    assertThat(Hooks.returned(tag)).isEqualTo(1);
    assertThat(orders(tag)).isEqualTo(1);
    assertThat(outboxRows(tag)).isEqualTo(1);

    HttpResponse<String> later = send(path, "k-dup");
    assertThat(later.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(later.body()).isEqualTo(first.get().body());
  }

  /**
   * The domain refuses after the order was saved and flushed and the event appended: the refusal is
   * stored and replayed, the order and the event are rolled back.
   */
  @Test
  void aRefusalAfterSavingIsStoredWithoutTheOrderOrItsEvent() {
    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + tag + "&quantity=" + 99;

    HttpResponse<String> refused = send(path, "k-refused");
    HttpResponse<String> retry = send(path, "k-refused");

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("only 10 in stock, 99 ordered");
    assertThat(refused.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(retry.statusCode()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.body()).isEqualTo(refused.body());
    assertThat(orders(tag)).isZero();
    assertThat(outboxRows(tag)).isZero();
    assertThat(storedKeys("k-refused")).isEqualTo(1);
  }

  /** The handler throws after saving, flushing and publishing: nothing commits, the key is free. */
  @Test
  void aFailureAfterSavingCommitsNothingAndTheRetryExecutes() {
    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + tag;
    Hooks.FAIL_ONCE.add(tag);

    HttpResponse<String> failed = send(path, "k-failed");

    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(orders(tag)).isZero();
    assertThat(outboxRows(tag)).isZero();
    assertThat(storedKeys("k-failed")).isZero();

    HttpResponse<String> retry = send(path, "k-failed");

    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(orders(tag)).isEqualTo(1);
    assertThat(outboxRows(tag)).isEqualTo(1);
    assertThat(storedKeys("k-failed")).isEqualTo(1);
  }

  /**
   * An order saved but not flushed by the handler violates the unique order reference only when
   * Hibernate flushes it, at the commit, after the handler answered 201 and Once wrote the answer:
   * the whole transaction rolls back, so no success is stored, and the key stays free.
   */
  @Test
  void aConstraintViolatedOnlyAtTheCommitsFlushRollsBackEverythingAndStoresNoSuccess() {
    String ref = tag();
    String placed = tag();
    assertThat(send("/jpa/orders/" + placed + "?ref=" + ref + "&flush=false", "k-a").statusCode())
        .isEqualTo(201);

    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + ref + "&flush=false";
    HttpResponse<String> violated = send(path, "k-b");

    assertThat(Hooks.returned(tag)).as("the handler answered before the flush").isEqualTo(1);
    assertProblem(violated, 503, "service-unavailable");
    assertThat(orders(tag)).isZero();
    assertThat(outboxRows(tag)).isZero();
    assertThat(storedKeys("k-b")).isZero();

    HttpResponse<String> retry = send(path, "k-b");

    assertThat(Hooks.returned(tag)).as("the retry executes: nothing was stored").isEqualTo(2);
    assertProblem(retry, 503, "service-unavailable");
    assertThat(orders(tag)).isZero();
    assertThat(outboxRows(tag)).isZero();
    assertThat(storedKeys("k-b")).isZero();
    assertThat(orders(placed)).isEqualTo(1);
    assertThat(outboxRows(placed)).isEqualTo(1);
  }

  /**
   * Flushed in the handler, the same violation is the handler's to answer: it refuses 422, which is
   * stored and replayed, though the failed insert aborted the request's transaction (the refusal is
   * stored by a transaction of its own).
   */
  @Test
  void aConstraintViolatedAtAFlushInTheHandlerIsItsRefusalAndIsStored() {
    String ref = tag();
    assertThat(send("/jpa/orders/" + tag() + "?ref=" + ref, "k-c").statusCode()).isEqualTo(201);

    String tag = tag();
    String path = "/jpa/orders/" + tag + "?ref=" + ref;
    HttpResponse<String> refused = send(path, "k-d");
    HttpResponse<String> retry = send(path, "k-d");

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.body()).contains("duplicate-reference");
    assertThat(retry.statusCode()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.body()).isEqualTo(refused.body());
    assertThat(orders(tag)).isZero();
    assertThat(outboxRows(tag)).isZero();
    assertThat(storedKeys("k-d")).isEqualTo(1);
  }

  /** The consumer's repository write joins the inbox's transaction: one transaction id. */
  @Test
  void aJpaConsumerCommitsItsEntityWithItsInboxRecord() throws Exception {
    InboxMessage message =
        new InboxMessage(
            UUID.randomUUID(), OrderEvents.ORDER_PLACED, tag(), "{\"ref\":\"r\",\"fail\":false}");

    assertThat(inbox.deliver(reserveStock, message)).isTrue();
    assertThat(inbox.deliver(reserveStock, message)).isFalse();

    assertThat(reservations(message.messageId())).isEqualTo(1);
    assertThat(inboxRecords(message.messageId())).isEqualTo(1);
    assertThat(
            jdbc.sql("SELECT xmin::text FROM jpa_stock_reservation WHERE message_id = ?")
                .param(message.messageId())
                .query(String.class)
                .single())
        .isEqualTo(
            jdbc.sql("SELECT xmin::text FROM once.inbox WHERE message_id = ?")
                .param(message.messageId())
                .query(String.class)
                .single());
  }

  /** The consumer throws after its reservation was flushed: both it and the record roll back. */
  @Test
  void aJpaConsumerThatThrowsRollsBackItsEntityAndItsInboxRecord() {
    InboxMessage message =
        new InboxMessage(
            UUID.randomUUID(), OrderEvents.ORDER_PLACED, tag(), "{\"ref\":\"r\",\"fail\":true}");

    assertThatThrownBy(() -> inbox.deliver(reserveStock, message)).hasMessage("stock service down");

    assertThat(reservations(message.messageId())).isZero();
    assertThat(inboxRecords(message.messageId())).isZero();
  }

  private HttpResponse<String> send(String path, String key) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .header("Content-Type", "application/json")
            .header("X-Client", client)
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void assertProblem(HttpResponse<String> r, int status, String slug) {
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(r.body()).contains("\"type\":\"https://once.dev/problems/" + slug + "\"");
  }

  private long orders(String tag) {
    return count("SELECT count(*) FROM jpa_placed_order WHERE tag = ?", tag);
  }

  private long outboxRows(String tag) {
    return count(
        "SELECT count(*) FROM once.outbox WHERE aggregate_id = ? AND type = ?",
        tag,
        OrderEvents.ORDER_PLACED);
  }

  private long storedKeys(String key) {
    return count(
        "SELECT count(*) FROM once.idempotency_key WHERE client_id = ? AND idem_key = ?",
        client,
        key);
  }

  private long reservations(UUID messageId) {
    return count("SELECT count(*) FROM jpa_stock_reservation WHERE message_id = ?", messageId);
  }

  private long inboxRecords(UUID messageId) {
    return count(
        "SELECT count(*) FROM once.inbox WHERE message_id = ? AND consumer = ?",
        messageId,
        reserveStock.name());
  }

  private long count(String sql, Object... params) {
    return jdbc.sql(sql).params(params).query(Long.class).single();
  }

  private static String tag() {
    return "t" + UUID.randomUUID().toString().replace("-", "");
  }
}
