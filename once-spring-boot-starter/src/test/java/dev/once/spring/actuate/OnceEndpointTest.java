package dev.once.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxStore;
import dev.once.outbox.TypeCounts;
import dev.once.spring.outbox.OutboxTestApplication;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The Actuator endpoint {@code once} on a real database: what it reports, the dead rows with keyset
 * paging and one row with its payload, a requeue (refused past the inbox retention unless forced),
 * and every malformed or unknown argument refused with a clear 4xx that changes nothing.
 */
class OnceEndpointTest {
  private final ApplicationContextRunner runner =
      OutboxTestApplication.runner()
          .withPropertyValues("once.outbox.relay.enabled=false", "once.inbox.retention=1d");

  @Test
  void theEndpointExistsWithActuatorAndReportsTheOutboxPerType() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 3);

          OnceEndpoint.OutboxReport report = endpoint.report().outbox();
          assertThat(report.dead()).isGreaterThanOrEqualTo(3);
          assertThat(report.types()).contains(new TypeCounts(dead.type, 1, 1, 3));
        });
  }

  @Test
  void deadRowsArePagedWithoutPayloadsAndOneRowShowsItsPayload() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 3);
          long before = dead.ids.get(0) - 1;

          WebEndpointResponse<Object> first = endpoint.rows("dead", Long.toString(before), "2");
          assertThat(first.getStatus()).isEqualTo(200);
          OnceEndpoint.DeadPage page = (OnceEndpoint.DeadPage) first.getBody();
          assertThat(page.rows())
              .extracting(OnceEndpoint.DeadView::id)
              .containsExactly(Long.toString(dead.ids.get(0)), Long.toString(dead.ids.get(1)));
          assertThat(page.rows().get(0).lastError()).isEqualTo("refused");
          assertThat(page.next()).isEqualTo(Long.toString(dead.ids.get(1)));
          OnceEndpoint.DeadPage second =
              (OnceEndpoint.DeadPage) endpoint.rows("dead", page.next(), "2").getBody();
          assertThat(second.rows().get(0).id()).isEqualTo(Long.toString(dead.ids.get(2)));

          WebEndpointResponse<Object> one = endpoint.row("dead", Long.toString(dead.ids.get(0)));
          assertThat(one.getStatus()).isEqualTo(200);
          OnceEndpoint.DeadRow row = (OnceEndpoint.DeadRow) one.getBody();
          assertThat(row.payload()).isEqualTo("{\"secret\": \"s0\"}");
          assertThat(row.row().type()).isEqualTo(dead.type);
          assertThat(endpoint.row("dead", Long.toString(dead.pending)).getStatus())
              .as("a pending row is no dead row")
              .isEqualTo(404);
        });
  }

  @Test
  void malformedOrUnknownArgumentsAreRefusedAndChangeNothing() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 1);
          String id = Long.toString(dead.ids.get(0));

          for (String[] paging :
              new String[][] {
                {"-1", null},
                {"x", null},
                {"1234567890123456789", null},
                {null, "0"},
                {null, "1001"},
                {null, "ten"},
                {null, "-5"}
              }) {
            assertThat(endpoint.rows("dead", paging[0], paging[1]).getStatus())
                .as("after %s, limit %s", paging[0], paging[1])
                .isEqualTo(400);
          }
          assertThat(endpoint.rows("pending", null, null).getStatus()).isEqualTo(404);
          assertThat(endpoint.row("dead", "1 OR 1=1").getStatus()).isEqualTo(400);
          assertThat(endpoint.row("dead", "0").getStatus()).isEqualTo(404);
          assertThat(endpoint.move("dead", "abc", "requeue", null, null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.move("dead", id, "delete", null, null, null).getStatus())
              .isEqualTo(404);
          assertThat(endpoint.move("held", id, "requeue", null, null, null).getStatus())
              .isEqualTo(404);
          assertThat(endpoint.move("dead", "999999999999", "requeue", null, null, null).getStatus())
              .isEqualTo(404);
          assertThat(state(context, dead.ids.get(0))).isEqualTo("dead");
        });
  }

  @Test
  void aRequeueMovesTheRowBackOnceAndPastTheInboxRetentionOnlyWhenForced() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 2);
          String fresh = Long.toString(dead.ids.get(0));

          assertThat(endpoint.move("dead", fresh, "requeue", null, null, () -> "ops").getStatus())
              .isEqualTo(200);
          assertThat(state(context, dead.ids.get(0))).isEqualTo("pending");
          assertThat(endpoint.move("dead", fresh, "requeue", null, null, null).getStatus())
              .as("the second requeue finds no dead row")
              .isEqualTo(404);

          // Two days later, past the inbox retention of one day.
          OnceEndpoint later =
              new OnceEndpoint(
                  context.getBean(dev.once.outbox.OutboxAdmin.class),
                  Duration.ofDays(1),
                  Clock.fixed(Instant.now().plus(Duration.ofDays(2)), ZoneOffset.UTC));
          String old = Long.toString(dead.ids.get(1));
          WebEndpointResponse<Object> refused =
              later.move("dead", old, "requeue", false, null, null);
          assertThat(refused.getStatus()).isEqualTo(409);
          assertThat(((OnceEndpoint.Refusal) refused.getBody()).error())
              .isEqualTo("requeue-past-retention");
          assertThat(state(context, dead.ids.get(1))).isEqualTo("dead");
          assertThat(later.move("dead", old, "requeue", true, null, null).getStatus())
              .isEqualTo(200);
          assertThat(state(context, dead.ids.get(1))).isEqualTo("pending");
        });
  }

  @Test
  void aNativeImageCanWriteTheEndpointsAnswers() {
    RuntimeHints hints = new RuntimeHints();
    new OnceActuateAutoConfiguration.EndpointHints()
        .registerHints(hints, getClass().getClassLoader());
    for (Class<?> answer :
        List.of(
            OnceEndpoint.OutboxReport.class,
            OnceEndpoint.DeadView.class,
            OnceEndpoint.Moved.class,
            OnceEndpoint.Refusal.class,
            TypeCounts.class)) {
      assertThat(RuntimeHintsPredicates.reflection().onType(answer))
          .as(answer.getName())
          .accepts(hints);
    }
  }

  @Test
  void aDiscardEndsTheDeadRowAndReleasesTheRowHeldBehindIt() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 1);
          String id = Long.toString(dead.ids.get(0));

          WebEndpointResponse<Object> discarded =
              endpoint.move("dead", id, "discard", null, null, null);
          assertThat(discarded.getStatus()).isEqualTo(200);
          assertThat(((OnceEndpoint.Moved) discarded.getBody()).state()).isEqualTo("discarded");
          assertThat(state(context, dead.ids.get(0))).isEqualTo("discarded");
          assertThat(endpoint.report().outbox().types())
              .contains(new TypeCounts(dead.type, 2, 0, 0));
          assertThat(endpoint.move("dead", id, "discard", null, null, null).getStatus())
              .isEqualTo(404);
          assertThat(endpoint.move("dead", id, "requeue", null, null, null).getStatus())
              .isEqualTo(404);
        });
  }

  @Test
  void aTypeIsPausedAndResumedThroughTheEndpointWithItsAuthorAndReason() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          String type = "pause-" + UUID.randomUUID();

          WebEndpointResponse<Object> paused =
              endpoint.move("types", type, "pause", null, "provider maintenance", () -> "ops");

          assertThat(paused.getStatus()).isEqualTo(200);
          OnceEndpoint.Paused answer = (OnceEndpoint.Paused) paused.getBody();
          assertThat(answer.paused()).isTrue();
          assertThat(endpoint.report().outbox().paused())
              .filteredOn(p -> p.type().equals(type))
              .singleElement()
              .satisfies(
                  p -> {
                    assertThat(p.pausedBy()).isEqualTo("ops");
                    assertThat(p.reason()).isEqualTo("provider maintenance");
                  });
          WebEndpointResponse<Object> again =
              endpoint.move("types", type, "pause", null, "x", null);
          assertThat(((OnceEndpoint.Paused) again.getBody()).paused())
              .as("paused already")
              .isFalse();

          assertThat(endpoint.move("types", type, "resume", null, null, () -> "ops").getStatus())
              .isEqualTo(200);
          assertThat(endpoint.report().outbox().paused()).noneMatch(p -> p.type().equals(type));
          WebEndpointResponse<Object> notPaused =
              endpoint.move("types", type, "resume", null, null, null);
          assertThat(notPaused.getStatus()).isEqualTo(404);
          assertThat(((OnceEndpoint.Refusal) notPaused.getBody()).detail()).contains("not paused");
        });
  }

  @Test
  void malformedPausesAreRefusedAndPauseNothing() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          List<String> before =
              endpoint.report().outbox().paused().stream().map(p -> p.type()).toList();

          assertThat(endpoint.move("types", " ", "pause", null, null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.move("types", "x".repeat(201), "pause", null, null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.move("types", "t", "pause", null, "r".repeat(1001), null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.move("types", "t", "stop", null, null, null).getStatus())
              .isEqualTo(404);
          assertThat(
                  endpoint.move("types", "x".repeat(201), "resume", null, null, null).getStatus())
              .isEqualTo(400);

          assertThat(endpoint.report().outbox().paused().stream().map(p -> p.type()).toList())
              .isEqualTo(before);
        });
  }

  @Test
  void withARelayOnlyTheTypesItHandlesArePaused() {
    OutboxTestApplication.runner()
        .withPropertyValues("once.outbox.relay.auto-start=false")
        .run(
            context -> {
              OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);

              WebEndpointResponse<Object> unknown =
                  endpoint.move("types", "no-such-type", "pause", null, null, null);

              assertThat(unknown.getStatus()).isEqualTo(404);
              assertThat(((OnceEndpoint.Refusal) unknown.getBody()).detail())
                  .contains("no-such-type", OutboxTestApplication.CHARGE);
              assertThat(endpoint.report().outbox().paused())
                  .noneMatch(p -> p.type().equals("no-such-type"));
              try {
                assertThat(
                        endpoint
                            .move("types", OutboxTestApplication.CHARGE, "pause", null, null, null)
                            .getStatus())
                    .isEqualTo(200);
                assertThat(endpoint.report().outbox().paused())
                    .anyMatch(
                        p ->
                            p.type().equals(OutboxTestApplication.CHARGE)
                                && p.pausedBy().equals("once endpoint"));
              } finally {
                endpoint.move("types", OutboxTestApplication.CHARGE, "resume", null, null, null);
              }
            });
  }

  @Test
  void manyDeadRowsAreRequeuedInOneCallEachWithItsOutcome() {
    runner.run(
        context -> {
          OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
          Dead dead = dead(context, 3);
          String ids =
              dead.ids.get(0) + ", " + dead.ids.get(1) + "," + dead.pending + "," + dead.ids.get(0);

          WebEndpointResponse<Object> answer =
              endpoint.moveMany("dead", "requeue", ids, null, null);

          assertThat(answer.getStatus()).isEqualTo(200);
          OnceEndpoint.MovedMany many = (OnceEndpoint.MovedMany) answer.getBody();
          assertThat(many.requeued()).isEqualTo(2);
          assertThat(many.rows())
              .extracting(OnceEndpoint.Outcome::outcome)
              .containsExactly("pending", "pending", "not-found");
          assertThat(state(context, dead.ids.get(0))).isEqualTo("pending");
          assertThat(state(context, dead.ids.get(2))).as("not named").isEqualTo("dead");

          String third = Long.toString(dead.ids.get(2));
          assertThat(endpoint.moveMany("dead", "requeue", null, null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.moveMany("dead", "requeue", third + ",x", null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.moveMany("dead", "requeue", third + ",", null, null).getStatus())
              .isEqualTo(400);
          String tooMany =
              String.join(
                  ",",
                  java.util.stream.LongStream.rangeClosed(1, 1001)
                      .mapToObj(Long::toString)
                      .toList());
          assertThat(endpoint.moveMany("dead", "requeue", tooMany, null, null).getStatus())
              .isEqualTo(400);
          assertThat(endpoint.moveMany("dead", "discard", third, null, null).getStatus())
              .isEqualTo(404);
          assertThat(state(context, dead.ids.get(2))).as("nothing changed").isEqualTo("dead");
        });
  }

  @Test
  void malformedReplaysAreRefusedWithTheReasonAndRecordNothing() {
    runner
        .withPropertyValues("once.outbox.archive.enabled=true")
        .run(
            context -> {
              OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
              String id = UUID.randomUUID().toString();
              String from = Instant.now().minus(Duration.ofHours(1)).toString();
              String to = Instant.now().toString();
              String old = Instant.now().minus(Duration.ofDays(2)).toString();
              int before = replays(endpoint).size();

              assertThat(replay(endpoint, null, "t", from, to, null, null).getStatus())
                  .isEqualTo(400);
              assertThat(replay(endpoint, "not-a-uuid", "t", from, to, null, null).getStatus())
                  .isEqualTo(400);
              assertThat(replay(endpoint, id, "t", "yesterday", to, null, null).getStatus())
                  .isEqualTo(400);
              WebEndpointResponse<Object> inverted =
                  replay(endpoint, id, "t", to, from, null, null);
              assertThat(inverted.getStatus()).isEqualTo(400);
              assertThat(((OnceEndpoint.Refusal) inverted.getBody()).detail())
                  .contains("empty or inverted");
              assertThat(replay(endpoint, id, " ", from, to, null, null).getStatus())
                  .isEqualTo(400);
              assertThat(replay(endpoint, id, "t", from, to, "x".repeat(256), null).getStatus())
                  .isEqualTo(400);
              WebEndpointResponse<Object> past = replay(endpoint, id, "t", old, to, null, null);
              assertThat(past.getStatus()).isEqualTo(409);
              assertThat(((OnceEndpoint.Refusal) past.getBody()).error())
                  .isEqualTo("replay-past-retention");
              assertThat(
                      endpoint
                          .replay("replay-all", id, "t", from, to, null, null, null, null)
                          .getStatus())
                  .isEqualTo(404);
              assertThat(endpoint.rows("replays", null, "0").getStatus()).isEqualTo(400);
              assertThat(replays(endpoint)).hasSize(before);

              WebEndpointResponse<Object> forced =
                  endpoint.replay("replay", id, "t", old, to, null, null, true, null);
              assertThat(forced.getStatus()).isEqualTo(200);
              assertThat(((dev.once.outbox.Replay) forced.getBody()).rows()).isZero();
              WebEndpointResponse<Object> reused =
                  endpoint.replay("replay", id, "u", old, to, null, null, true, null);
              assertThat(reused.getStatus()).isEqualTo(409);
              assertThat(((OnceEndpoint.Refusal) reused.getBody()).detail())
                  .contains("was used for another replay");
            });
  }

  @Test
  void aReplayWithTheArchiveOffIsRefused() {
    runner.run(
        context -> {
          WebEndpointResponse<Object> answer =
              replay(
                  context.getBean(OnceEndpoint.class),
                  UUID.randomUUID().toString(),
                  "t",
                  Instant.now().minusSeconds(60).toString(),
                  Instant.now().toString(),
                  null,
                  null);
          assertThat(answer.getStatus()).isEqualTo(409);
          assertThat(((OnceEndpoint.Refusal) answer.getBody()).detail()).contains("archive is off");
        });
  }

  private static WebEndpointResponse<Object> replay(
      OnceEndpoint endpoint,
      String id,
      String type,
      String from,
      String to,
      String aggregate,
      String consumer) {
    return endpoint.replay("replay", id, type, from, to, aggregate, consumer, null, null);
  }

  private static List<dev.once.outbox.Replay> replays(OnceEndpoint endpoint) {
    return ((OnceEndpoint.Replays) endpoint.rows("replays", null, "1000").getBody()).replays();
  }

  /** {@code count} dead rows of a type of their own, one held row and one pending row. */
  private record Dead(String type, List<Long> ids, long pending) {}

  private static Dead dead(ApplicationContext context, int count) throws Exception {
    OutboxStore store = context.getBean(OutboxStore.class);
    DataSource dataSource = context.getBean(DataSource.class);
    String type = "endpoint-" + UUID.randomUUID();
    List<Long> ids = new java.util.ArrayList<>();
    try (Connection tx = dataSource.getConnection()) {
      tx.setAutoCommit(false);
      for (int i = 0; i < count; i++) {
        OutboxEntry entry =
            store.append(
                tx,
                UUID.randomUUID(),
                new OutboxMessage(type, "agg-" + i + "-" + type, "{\"secret\": \"s" + i + "\"}"));
        ids.add(entry.id());
      }
      tx.commit();
    }
    UUID claim = UUID.randomUUID();
    List<OutboxRecord> claimed = store.claim(claim, List.of(type), count, Duration.ofMinutes(1));
    assertThat(claimed).hasSize(count);
    for (long id : ids) {
      assertThat(store.bury(id, claim, "refused")).isTrue();
    }
    long pending;
    try (Connection tx = dataSource.getConnection()) {
      tx.setAutoCommit(false);
      // Behind the first dead row: held. And one of an aggregate of its own: pending.
      store.append(tx, UUID.randomUUID(), new OutboxMessage(type, "agg-0-" + type, "{}"));
      pending =
          store.append(tx, UUID.randomUUID(), new OutboxMessage(type, "free-" + type, "{}")).id();
      tx.commit();
    }
    return new Dead(type, ids, pending);
  }

  private static String state(ApplicationContext context, long id) {
    return JdbcClient.create(context.getBean(DataSource.class))
        .sql("SELECT state FROM once.outbox WHERE id = ?")
        .param(id)
        .query(String.class)
        .single();
  }
}
