package dev.once.shop.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import java.net.http.HttpRequest;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Once's Actuator endpoint {@code /actuator/once} as the shop exposes it: only with the admin token
 * (it shows dead rows' payloads and requeues them), over real HTTP; and every malformed, unknown or
 * hostile argument refused with a 4xx that changes nothing.
 */
class OnceActuatorEndpointTest extends ShopIntegrationTest {

  @Test
  void withoutTheAdminTokenNothingIsShownAndNothingRequeued() {
    long dead = insertDead("agg-" + UUID.randomUUID(), "{\"card\": \"4111\"}");
    for (String path :
        new String[] {"/actuator/once", "/actuator/once/dead", "/actuator/once/dead/" + dead}) {
      ShopResponse answer = http.send(http.request(path).GET());
      answer.assertProblem(401, "unauthorized");
      assertThat(answer.body()).doesNotContain("4111");
      http.send(http.request(path).header("Authorization", "Bearer not-the-token").GET())
          .assertProblem(401, "unauthorized");
    }
    http.send(
            http.request("/actuator/once/dead/" + dead + "/requeue")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")))
        .assertProblem(401, "unauthorized");
    assertThat(stateOf(dead)).isEqualTo("dead");
  }

  @Test
  void anOperatorReadsTheOutboxPagesDeadRowsReadsAPayloadAndRequeues() {
    String aggregate = "agg-" + UUID.randomUUID();
    long dead = insertDead(aggregate, "{\"card\": \"4111\"}");

    ShopResponse report = http.adminGet("/actuator/once");
    report.assertStatus(200);
    JsonNode outbox = report.json().get("outbox");
    assertThat(outbox.get("dead").asLong()).isGreaterThanOrEqualTo(1);
    assertThat(outbox.get("types").findValuesAsString("type")).contains("provider.endpoint-test");

    ShopResponse page = http.adminGet("/actuator/once/dead?limit=1&after=" + (dead - 1));
    page.assertStatus(200);
    JsonNode row = page.json().get("rows").get(0);
    assertThat(row.get("id").stringValue()).isEqualTo(Long.toString(dead));
    assertThat(row.get("aggregateId").stringValue()).isEqualTo(aggregate);
    assertThat(row.has("payload")).as("no payload in a page").isFalse();
    assertThat(page.body()).doesNotContain("4111");

    ShopResponse one = http.adminGet("/actuator/once/dead/" + dead);
    one.assertStatus(200);
    assertThat(one.json().get("payload").stringValue()).isEqualTo("{\"card\": \"4111\"}");

    ShopResponse requeued = http.admin("/actuator/once/dead/" + dead + "/requeue", "{}");
    requeued.assertStatus(200);
    assertThat(requeued.text("state")).isEqualTo("pending");
    assertThat(stateOf(dead)).isEqualTo("pending");
    http.admin("/actuator/once/dead/" + dead + "/requeue", "{}").assertStatus(404);
    // This JVM's relay is off; leave nothing pending for a relay of a later test.
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE id = ?").param(dead).update();
  }

  @Test
  void anOperatorPausesAndResumesATypeAndEveryInstanceSeesItInTheDatabase() {
    String type = "provider.pause-test-" + UUID.randomUUID();
    http.send(
            http.request("/actuator/once/types/" + type + "/pause")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")))
        .assertProblem(401, "unauthorized");
    assertThat(pausedRows(type)).isZero();

    ShopResponse paused =
        http.admin("/actuator/once/types/" + type + "/pause", "{\"reason\": \"PSP maintenance\"}");

    paused.assertStatus(200);
    assertThat(paused.json().get("paused").asBoolean()).isTrue();
    assertThat(pausedRows(type)).as("in the database, for every instance").isEqualTo(1);
    JsonNode listed = http.adminGet("/actuator/once").json().get("outbox").get("paused");
    assertThat(listed.findValuesAsString("type")).contains(type);
    assertThat(listed.findValuesAsString("reason")).contains("PSP maintenance");

    http.admin("/actuator/once/types/" + type + "/resume", "{}").assertStatus(200);
    assertThat(pausedRows(type)).isZero();
    http.admin("/actuator/once/types/" + type + "/resume", "{}").assertProblem(404, "not-found");
    http.admin("/actuator/once/types/" + "x".repeat(201) + "/pause", "{}")
        .assertProblem(400, "invalid-parameter");
    http.admin("/actuator/once/types/" + type + "/halt", "{}").assertProblem(404, "not-found");
    http.admin("/actuator/once/replay", "{\"id\": \"not-a-uuid\"}")
        .assertProblem(400, "invalid-parameter");
    http.admin("/actuator/once/dead/requeue?ids=1,x", "{}").assertProblem(400, "invalid-parameter");
    assertThat(pausedRows(type)).isZero();
  }

  private long pausedRows(String type) {
    return jdbc.sql("SELECT count(*) FROM once.outbox_pause WHERE type = ?")
        .param(type)
        .query(Long.class)
        .single();
  }

  @Test
  void aDiscardEndsADeadRowAndReleasesTheRowsHeldBehindIt() {
    String aggregate = "agg-" + UUID.randomUUID();
    long dead = insertDead(aggregate, "{}");
    long held =
        jdbc.sql(
                """
                INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                         created_at, held)
                VALUES (?, 'provider.endpoint-test', ?, '{}'::jsonb, now(), now(), true)
                RETURNING id
                """)
            .params(UUID.randomUUID(), aggregate)
            .query(Long.class)
            .single();

    ShopResponse discarded = http.admin("/actuator/once/dead/" + dead + "/discard", "{}");
    discarded.assertStatus(200);
    assertThat(discarded.text("state")).isEqualTo("discarded");
    assertThat(stateOf(dead)).isEqualTo("discarded");
    assertThat(
            jdbc.sql("SELECT held FROM once.outbox WHERE id = ?")
                .param(held)
                .query(Boolean.class)
                .single())
        .as("released")
        .isFalse();
    http.admin("/actuator/once/dead/" + dead + "/discard", "{}").assertStatus(404);
    http.admin("/actuator/once/dead/" + dead + "/requeue", "{}").assertStatus(404);
    // This JVM's relay is off; leave nothing pending for a relay of a later test.
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE id = ?").param(held).update();
  }

  @Test
  void malformedUnknownAndHostileArgumentsAreRefusedAndChangeNothing() {
    long dead = insertDead("agg-" + UUID.randomUUID(), "{}");
    for (String path :
        new String[] {
          "/actuator/once/dead?limit=0",
          "/actuator/once/dead?limit=1001",
          "/actuator/once/dead?limit=x",
          "/actuator/once/dead?after=-1",
          "/actuator/once/dead?after=1%27%20OR%201=1",
          "/actuator/once/dead/abc",
          "/actuator/once/dead/99999999999999999999"
        }) {
      http.adminGet(path).assertStatus(400);
    }
    http.adminGet("/actuator/once/pending").assertStatus(404);
    http.adminGet("/actuator/once/dead/0").assertStatus(404);
    http.admin("/actuator/once/dead/abc/requeue", "{}").assertProblem(400, "invalid-parameter");
    http.admin("/actuator/once/dead/" + dead + "/delete", "{}").assertStatus(404);
    http.admin("/actuator/once/dead/abc/discard", "{}").assertProblem(400, "invalid-parameter");
    http.admin("/actuator/once/dead/" + dead + "/requeue", "{\"force\": \"maybe\"}")
        .assertStatus(400);
    http.admin("/actuator/once/dead/" + dead + "/requeue", "not json").assertStatus(400);
    assertThat(stateOf(dead)).isEqualTo("dead");
  }

  @Test
  void aRowPastTheInboxRetentionIsRequeuedOnlyWhenForced() {
    long old =
        insertDead(
            "agg-" + UUID.randomUUID(),
            "{}",
            OffsetDateTime.now(ZoneOffset.UTC).minusDays(7).minusMinutes(1));
    ShopResponse refused = http.admin("/actuator/once/dead/" + old + "/requeue", "{}");
    refused.assertProblem(409, "requeue-past-retention");
    assertThat(stateOf(old)).isEqualTo("dead");
    http.admin("/actuator/once/dead/" + old + "/requeue?force=maybe", "").assertStatus(400);
    assertThat(stateOf(old)).isEqualTo("dead");
    http.admin("/actuator/once/dead/" + old + "/requeue?force=true", "").assertStatus(200);
    assertThat(stateOf(old)).isEqualTo("pending");
    jdbc.sql("UPDATE once.outbox SET state = 'dead' WHERE id = ?").param(old).update();
  }

  private String stateOf(long id) {
    return jdbc.sql("SELECT state FROM once.outbox WHERE id = ?")
        .param(id)
        .query(String.class)
        .single();
  }

  private long insertDead(String aggregate, String payload) {
    return insertDead(aggregate, payload, OffsetDateTime.now(ZoneOffset.UTC));
  }

  private long insertDead(String aggregate, String payload, OffsetDateTime at) {
    return jdbc.sql(
            """
            INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state, attempts,
                                     next_attempt_at, created_at, last_error)
            VALUES (?, 'provider.endpoint-test', ?, CAST(? AS jsonb), 'dead', 10, ?, ?, 'gone')
            RETURNING id
            """)
        .params(UUID.randomUUID(), aggregate, payload, at, at)
        .query(Long.class)
        .single();
  }
}
