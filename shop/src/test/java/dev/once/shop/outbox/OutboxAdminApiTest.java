package dev.once.shop.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.LogCapture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import java.net.http.HttpRequest;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The operators' outbox API: listing dead rows, requeueing one, and what it refuses. */
class OutboxAdminApiTest extends ShopIntegrationTest {

  @Test
  void deadRowsAreListedInPagesAndARequeueMakesOnePendingWithAFreshBudget() {
    String aggregate = "agg-" + UUID.randomUUID();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(insertDead(aggregate, "provider.test", "HTTP 404 charge-not-found"));
    }

    List<JsonNode> mine = new ArrayList<>();
    String after = Long.toString(ids.get(0) - 1);
    ShopResponse page = http.adminGet("/admin/v1/outbox/dead?limit=2&after=" + after);
    page.assertStatus(200);
    page.json().get("items").forEach(mine::add);
    assertThat(page.json().get("next").stringValue()).isEqualTo(Long.toString(ids.get(1)));
    page = http.adminGet("/admin/v1/outbox/dead?limit=2&after=" + ids.get(1));
    page.json().get("items").forEach(mine::add);
    assertThat(mine.stream().limit(3).map(row -> row.get("id").stringValue()))
        .containsExactly(ids.stream().map(String::valueOf).toArray(String[]::new));
    JsonNode first = mine.get(0);
    assertThat(first.get("type").stringValue()).isEqualTo("provider.test");
    assertThat(first.get("aggregateId").stringValue()).isEqualTo(aggregate);
    assertThat(first.get("attempts").asInt()).isEqualTo(10);
    assertThat(first.get("lastError").stringValue()).isEqualTo("HTTP 404 charge-not-found");
    assertThat(first.has("payload")).as("payloads are not shown").isFalse();

    ShopResponse requeued = http.admin("/admin/v1/outbox/dead/" + ids.get(0) + "/requeue", "");
    requeued.assertStatus(200);
    assertThat(requeued.text("state")).isEqualTo("pending");
    assertThat(
            jdbc.sql("SELECT state || ':' || attempts FROM once.outbox WHERE id = ?")
                .param(ids.get(0))
                .query(String.class)
                .single())
        .isEqualTo("pending:0");
    http.admin("/admin/v1/outbox/dead/" + ids.get(0) + "/requeue", "")
        .assertProblem(404, "outbox-message-not-found");
    // Cleanup: this JVM's relay is off, but leave nothing pending for a relay of a later test.
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE aggregate_id = ?")
        .param(aggregate)
        .update();
  }

  @Test
  void aDiscardEndsADeadRowUndeliveredOnceAndRefusesAnythingElse() {
    String aggregate = "agg-" + UUID.randomUUID();
    long dead = insertDead(aggregate, "provider.test", "obsolete");

    http.admin("/admin/v1/outbox/dead/abc/discard", "")
        .assertProblem(404, "outbox-message-not-found");
    http.admin("/admin/v1/outbox/dead/0/discard", "")
        .assertProblem(404, "outbox-message-not-found");
    ShopResponse discarded = http.admin("/admin/v1/outbox/dead/" + dead + "/discard", "");
    discarded.assertStatus(200);
    assertThat(discarded.text("state")).isEqualTo("discarded");
    assertThat(stateOf(dead)).isEqualTo("discarded");
    http.admin("/admin/v1/outbox/dead/" + dead + "/discard", "")
        .assertProblem(404, "outbox-message-not-found");
    http.admin("/admin/v1/outbox/dead/" + dead + "/requeue", "")
        .assertProblem(404, "outbox-message-not-found");
    assertThat(stateOf(dead)).isEqualTo("discarded");
  }

  /**
   * A dead row appended longer ago than the inbox retention (7 days in the shop) may have lost its
   * consumers' inbox records: a requeue is refused with 409 and changes nothing, unless forced; a
   * forced requeue is logged with who forced it and its answer says what a redelivery may do.
   */
  @Test
  void aRequeuePastTheInboxRetentionIsRefusedUnlessForced() {
    String aggregate = "agg-" + UUID.randomUUID();
    long old =
        insertDead(
            aggregate,
            "provider.test",
            "gone",
            OffsetDateTime.now(ZoneOffset.UTC).minusDays(7).minusMinutes(1));

    http.admin("/admin/v1/outbox/dead/" + old + "/requeue", "")
        .assertProblem(409, "requeue-past-retention")
        .assertNoInternals();
    http.admin("/admin/v1/outbox/dead/" + old + "/requeue?force=false", "")
        .assertProblem(409, "requeue-past-retention");
    assertThat(stateOf(old)).isEqualTo("dead");

    ShopResponse forced;
    try (LogCapture logs = LogCapture.start()) {
      forced = http.admin("/admin/v1/outbox/dead/" + old + "/requeue?force=true", "");
      assertThat(logs.events())
          .extracting(e -> e.getFormattedMessage())
          .contains(
              "Outbox row "
                  + old
                  + " (provider.test of aggregate "
                  + aggregate
                  + ") requeued by an operator (admin token) from 127.0.0.1, forced past the inbox"
                  + " retention of PT168H");
    }
    forced.assertStatus(200);
    assertThat(forced.text("caution")).contains("inbox records").contains("applied again");
    assertThat(stateOf(old)).isEqualTo("pending");
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE aggregate_id = ?")
        .param(aggregate)
        .update();
  }

  @Test
  void aRowInsideTheRetentionIsRequeuedWithoutForce() {
    String aggregate = "agg-" + UUID.randomUUID();
    long recent =
        insertDead(
            aggregate, "provider.test", "gone", OffsetDateTime.now(ZoneOffset.UTC).minusDays(6));
    ShopResponse requeued = http.admin("/admin/v1/outbox/dead/" + recent + "/requeue", "");
    requeued.assertStatus(200);
    assertThat(requeued.text("caution")).contains("applied again");
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE aggregate_id = ?")
        .param(aggregate)
        .update();
  }

  @ParameterizedTest
  @ValueSource(strings = {"yes", "1", "TRUE", "", "true,true"})
  void aBadForceIsRefusedAndChangesNothing(String force) {
    long id = insertDead("agg-" + UUID.randomUUID(), "provider.test", "gone");
    http.admin("/admin/v1/outbox/dead/" + id + "/requeue?force=" + force, "")
        .assertProblem(400, "invalid-parameter")
        .assertNoInternals();
    assertThat(stateOf(id)).isEqualTo("dead");
  }

  private String stateOf(long id) {
    return jdbc.sql("SELECT state FROM once.outbox WHERE id = ?")
        .param(id)
        .query(String.class)
        .single();
  }

  @Test
  void statsShowTheBacklogAndTheDeadRows() {
    insertDead("agg-" + UUID.randomUUID(), "provider.test", "gone");
    JsonNode stats = http.adminGet("/admin/v1/outbox").assertStatus(200).json();
    assertThat(stats.get("dead").asLong()).isPositive();
    assertThat(stats.has("backlog")).isTrue();
    assertThat(stats.get("oldestDueAgeSeconds").asDouble()).isGreaterThanOrEqualTo(0.0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "1001", "abc", "-1", "1.5", "99999999999999999999", ""})
  void aBadLimitIsRefused(String limit) {
    http.adminGet("/admin/v1/outbox/dead?limit=" + limit)
        .assertProblem(400, "invalid-parameter")
        .assertNoInternals();
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "x", "1e3", "99999999999999999999"})
  void aBadCursorIsRefused(String after) {
    http.adminGet("/admin/v1/outbox/dead?after=" + after).assertProblem(400, "invalid-parameter");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "abc", "999999999999", "-5", "1%20OR%201=1"})
  void requeueingWhatIsNotADeadRowIsNotFoundAndChangesNothing(String id) {
    long before = rowsNotDead();
    http.admin("/admin/v1/outbox/dead/" + id + "/requeue", "")
        .assertProblem(404, "outbox-message-not-found")
        .assertNoInternals();
    assertThat(rowsNotDead()).isEqualTo(before);
  }

  @Test
  void theOutboxApiNeedsTheAdminToken() {
    http.send(http.request("/admin/v1/outbox/dead").GET()).assertProblem(401, "unauthorized");
    long id = insertDead("agg-" + UUID.randomUUID(), "provider.test", "gone");
    http.send(
            http.request("/admin/v1/outbox/dead/" + id + "/requeue")
                .header("Authorization", "Bearer not-the-token")
                .POST(HttpRequest.BodyPublishers.noBody()))
        .assertProblem(401, "unauthorized");
    assertThat(
            jdbc.sql("SELECT state FROM once.outbox WHERE id = ?")
                .param(id)
                .query(String.class)
                .single())
        .isEqualTo("dead");
  }

  private long rowsNotDead() {
    return jdbc.sql("SELECT count(*) FROM once.outbox WHERE state <> 'dead'")
        .query(Long.class)
        .single();
  }

  private long insertDead(String aggregate, String type, String error) {
    return insertDead(aggregate, type, error, OffsetDateTime.now(ZoneOffset.UTC));
  }

  private long insertDead(String aggregate, String type, String error, OffsetDateTime now) {
    return jdbc.sql(
            """
            INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state, attempts,
                                     next_attempt_at, created_at, last_error)
            VALUES (?, ?, ?, '{}'::jsonb, 'dead', 10, ?, ?, ?)
            RETURNING id
            """)
        .params(UUID.randomUUID(), type, aggregate, now, now, error)
        .query(Long.class)
        .single();
  }
}
