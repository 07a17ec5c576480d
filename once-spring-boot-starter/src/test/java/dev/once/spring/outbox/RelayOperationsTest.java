package dev.once.spring.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.Replay;
import dev.once.spring.actuate.OnceEndpoint;
import dev.once.spring.outbox.OutboxTestApplication.ChargeHandler;
import dev.once.spring.outbox.OutboxTestApplication.Orders;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What an operator relies on: the relay's own connections (it delivers while the requests hold
 * every connection of the application's pool), its health and its meters. Each test runs on a
 * database of its own, so the health sees only its rows.
 */
@Timeout(120)
class RelayOperationsTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private String url;

  private ApplicationContextRunner runner() {
    url = freshDatabase();
    return OutboxTestApplication.runner(url)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues(
            "spring.datasource.hikari.maximum-pool-size=3",
            "spring.datasource.hikari.connection-timeout=1000",
            "once.outbox.relay.poll-interval=100ms");
  }

  @Test
  void theRelayDeliversWhileTheRequestsHoldEveryConnectionOfTheApplicationsPool() {
    runner()
        .run(
            context -> {
              RelayPool pool = context.getBean(RelayPool.class);
              assertThat(pool.own()).isTrue();
              Orders orders = context.getBean(Orders.class);
              ChargeHandler handler = context.getBean(ChargeHandler.class);
              UUID first = orders.append(OutboxTestApplication.CHARGE, "{}").messageId();
              await().atMost(PATIENCE).until(() -> handler.handled.contains(first));

              DataSource application = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(application);
              // The requests take every connection of the application's pool and keep them.
              List<Connection> held = new ArrayList<>();
              UUID event;
              try {
                for (int i = 0; i < 3; i++) {
                  held.add(application.getConnection());
                }
                UUID second = appendOutsideThePool(OutboxTestApplication.CHARGE);
                // Its two consumers write through the application's DataSource, in transactions
                // of the application's transaction manager: the relay's pool serves them.
                event = appendOutsideThePool(OutboxTestApplication.ORDER_PLACED);

                await().atMost(PATIENCE).until(() -> handler.handled.contains(second));
                await()
                    .atMost(PATIENCE)
                    .until(() -> context.getBean(OutboxRelay.class).stats().delivered() >= 3);
              } finally {
                for (Connection c : held) {
                  c.close();
                }
              }
              assertThat(effects.applied(event, "reserve-stock-" + OutboxTestApplication.RUN))
                  .isEqualTo(1);
              assertThat(effects.applied(event, "send-mail-" + OutboxTestApplication.RUN))
                  .isEqualTo(1);
              assertThat(((HikariDataSource) pool.dataSource()).getMaximumPoolSize()).isEqualTo(8);
              // Both pools drop a connection that a failover left read-only.
              assertThat(((HikariDataSource) pool.dataSource()).getExceptionOverride())
                  .extracting(override -> override.getClass().getName())
                  .isEqualTo("dev.once.spring.FailoverEviction");
              assertThat(application.unwrap(HikariDataSource.class).getExceptionOverride())
                  .extracting(override -> override.getClass().getName())
                  .isEqualTo("dev.once.spring.FailoverEviction");
            });
  }

  @Test
  void withPoolSizeZeroTheRelaySharesTheApplicationsDataSource() {
    runner()
        .withPropertyValues("once.outbox.relay.pool-size=0")
        .run(
            context -> {
              RelayPool pool = context.getBean(RelayPool.class);
              assertThat(pool.own()).isFalse();
              assertThat(pool.dataSource()).isSameAs(context.getBean(DataSource.class));
              assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
            });
  }

  @Test
  void theHealthIsDownWhenTheOldestDueRowIsTooOldOrTheRelayStopped() {
    runner()
        .withPropertyValues("once.outbox.relay.health-max-due-age=1m")
        .run(
            context -> {
              RelayHealth health = context.getBean(RelayHealth.class);
              assertThat(health.health().getStatus()).isEqualTo(Status.UP);

              // A row of a type that no relay here handles, due for two minutes.
              try (Connection c = context.getBean(DataSource.class).getConnection();
                  Statement s = c.createStatement()) {
                s.execute(
                    """
                    INSERT INTO once.outbox (message_id, type, aggregate_id, payload,
                                             next_attempt_at, created_at)
                    VALUES (gen_random_uuid(), 'nobody.handles', 'a', '{}',
                            now() - interval '2 minutes', now() - interval '2 minutes')
                    """);
              }
              assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.health().getDetails()).containsEntry("backlog", 1L);

              try (Connection c = context.getBean(DataSource.class).getConnection();
                  Statement s = c.createStatement()) {
                s.execute("DELETE FROM once.outbox WHERE type = 'nobody.handles'");
              }
              assertThat(health.health().getStatus()).isEqualTo(Status.UP);

              context.getBean(OutboxRelay.class).close();
              assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
              assertThat(health.health().getDetails()).containsEntry("running", false);
            });
  }

  @Test
  @SuppressWarnings("unchecked")
  void aTypePausedAtStartIsNotDeliveredAndTheHealthSaysSoWithoutGoingDown() {
    runner()
        .withPropertyValues("once.outbox.relay.paused-types=" + OutboxTestApplication.CHARGE)
        .run(
            context -> {
              OutboxAdmin admin = context.getBean(OutboxAdmin.class);
              assertThat(admin.paused())
                  .singleElement()
                  .satisfies(
                      p -> {
                        assertThat(p.type()).isEqualTo(OutboxTestApplication.CHARGE);
                        assertThat(p.pausedBy()).isEqualTo(OutboxRelay.Builder.PAUSED_AT_START_BY);
                      });
              UUID charge =
                  context
                      .getBean(Orders.class)
                      .append(OutboxTestApplication.CHARGE, "{}")
                      .messageId();
              OutboxRelay relay = context.getBean(OutboxRelay.class);
              assertThat(relay.runOnce()).as("nothing claimable").isZero();
              assertThat(context.getBean(ChargeHandler.class).handled).doesNotContain(charge);

              var health = context.getBean(RelayHealth.class).health();
              assertThat(health.getStatus()).isEqualTo(Status.UP);
              assertThat((Map<String, Object>) health.getDetails().get("paused"))
                  .containsOnlyKeys(OutboxTestApplication.CHARGE);

              assertThat(admin.resume(OutboxTestApplication.CHARGE)).isTrue();
              relay.wakeUp();
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> context.getBean(ChargeHandler.class).handled.contains(charge));
            });
  }

  @Test
  void withTheArchiveOnADeliveredRowMovesToTheArchive() {
    runner()
        .withPropertyValues(
            "once.outbox.archive.enabled=true", "once.outbox.relay.delivered-retention=0s")
        .run(
            context -> {
              UUID charge =
                  context
                      .getBean(Orders.class)
                      .append(OutboxTestApplication.CHARGE, "{}")
                      .messageId();
              JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(
                      () ->
                          jdbc.sql("SELECT count(*) FROM once.outbox_archive WHERE message_id = ?")
                                  .param(charge)
                                  .query(Long.class)
                                  .single()
                              == 1);
              assertThat(
                      jdbc.sql("SELECT count(*) FROM once.outbox WHERE message_id = ?")
                          .param(charge)
                          .query(Long.class)
                          .single())
                  .isZero();
              assertThat(
                      jdbc.sql(
                              "SELECT count(*) FROM pg_inherits"
                                  + " WHERE inhparent = 'once.outbox_archive'::regclass")
                          .query(Long.class)
                          .single())
                  .as("yesterday through seven days ahead")
                  .isEqualTo(9);
            });
  }

  @Test
  void anEventReplayedFromTheArchiveForOneConsumerIsAppliedAgainByItAlone() {
    String stock = "reserve-stock-" + OutboxTestApplication.RUN;
    String mail = "send-mail-" + OutboxTestApplication.RUN;
    runner()
        .withPropertyValues(
            "once.outbox.archive.enabled=true",
            "once.outbox.relay.delivered-retention=0s",
            "once.outbox.events=" + OutboxTestApplication.ORDER_PLACED)
        .run(
            context -> {
              Instant before = Instant.now().minusSeconds(60);
              UUID event =
                  context
                      .getBean(Orders.class)
                      .append(OutboxTestApplication.ORDER_PLACED, "{}")
                      .messageId();
              EffectTable effects = new EffectTable(context.getBean(DataSource.class));
              JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
              await().atMost(PATIENCE).until(() -> archived(jdbc, event) == 1);
              assertThat(effects.applied(event, stock)).isEqualTo(1);
              assertThat(effects.applied(event, mail)).isEqualTo(1);
              OnceEndpoint endpoint = context.getBean(OnceEndpoint.class);
              String id = UUID.randomUUID().toString();
              String after = Instant.now().plusSeconds(60).toString();

              java.util.function.Supplier<WebEndpointResponse<Object>> replayForStock =
                  () ->
                      endpoint.replay(
                          "replay",
                          id,
                          OutboxTestApplication.ORDER_PLACED,
                          before.toString(),
                          after,
                          null,
                          stock,
                          null,
                          () -> "ops");
              WebEndpointResponse<Object> answer = replayForStock.get();

              assertThat(answer.getStatus()).isEqualTo(200);
              Replay replay = (Replay) answer.getBody();
              assertThat(replay.rows()).isEqualTo(1);
              assertThat(replay.forgotten()).isEqualTo(1);
              assertThat(replay.requestedBy()).isEqualTo("ops");
              await().atMost(PATIENCE).until(() -> archived(jdbc, event) == 2);
              assertThat(effects.applied(event, stock)).as("taken again").isEqualTo(2);
              assertThat(effects.applied(event, mail)).as("skipped by its inbox").isEqualTo(1);

              WebEndpointResponse<Object> again = replayForStock.get();
              assertThat(((Replay) again.getBody()).repeated()).isTrue();
              assertThat(jdbc.sql("SELECT count(*) FROM once.outbox").query(Long.class).single())
                  .as("nothing appended the second time")
                  .isZero();
              assertThat(
                      endpoint
                          .replay(
                              "replay",
                              UUID.randomUUID().toString(),
                              OutboxTestApplication.ORDER_PLACED,
                              before.toString(),
                              after,
                              null,
                              "no-such-consumer",
                              null,
                              null)
                          .getStatus())
                  .isEqualTo(404);
              assertThat(
                      endpoint
                          .replay(
                              "replay",
                              UUID.randomUUID().toString(),
                              "no.such.type",
                              before.toString(),
                              after,
                              null,
                              null,
                              null,
                              null)
                          .getStatus())
                  .isEqualTo(404);
              assertThat(
                      ((OnceEndpoint.Replays) endpoint.rows("replays", null, null).getBody())
                          .replays())
                  .extracting(Replay::id)
                  .containsExactly(UUID.fromString(id));
            });
  }

  private static long archived(JdbcClient jdbc, UUID message) {
    return jdbc.sql("SELECT count(*) FROM once.outbox_archive WHERE message_id = ?")
        .param(message)
        .query(Long.class)
        .single();
  }

  @Test
  void theRelaysMetersCountClaimsCommitsAndDeliveries() {
    runner()
        .run(
            context -> {
              MeterRegistry meters = context.getBean(MeterRegistry.class);
              new EffectTable(context.getBean(DataSource.class));
              Orders orders = context.getBean(Orders.class);
              orders.append(OutboxTestApplication.CHARGE, "{}");
              orders.append(OutboxTestApplication.ORDER_PLACED, "{}");

              await()
                  .atMost(PATIENCE)
                  .until(
                      () ->
                          meters.get("once.outbox.relay.delivered").functionCounter().count() >= 2);
              assertThat(meters.get("once.outbox.relay.claims").functionCounter().count())
                  .isPositive();
              assertThat(meters.get("once.outbox.relay.claimed.rows").functionCounter().count())
                  .isGreaterThanOrEqualTo(2);
              assertThat(
                      meters.get("once.outbox.relay.joined.completions").functionCounter().count())
                  .as("the event's last consumer completed its row")
                  .isGreaterThanOrEqualTo(1);
              assertThat(meters.get("once.outbox.relay.commits").functionCounter().count())
                  .isPositive();
              assertThat(meters.get("once.outbox.relay.busy").functionCounter().count())
                  .isPositive();
              assertThat(meters.get("once.outbox.relay.running").gauge().value()).isEqualTo(1.0);
              assertThat(meters.get("once.outbox.claim").summary().count()).isPositive();
            });
  }

  private static String freshDatabase() {
    String name = "relay_ops_" + UUID.randomUUID().toString().replace("-", "");
    String url = TestDatabase.jdbcUrl();
    try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return url.replaceFirst("/postgres\\?", "/" + name + "?");
  }

  /** Appends a row on a connection of its own: the "requests" hold the application's pool. */
  private UUID appendOutsideThePool(String type) throws Exception {
    UUID id = UUID.randomUUID();
    try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
        var ps =
            c.prepareStatement(
                """
                INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                         created_at)
                VALUES (?, ?, ?, '{}', now(), now())
                """)) {
      ps.setObject(1, id);
      ps.setString(2, type);
      ps.setString(3, "agg-" + id);
      ps.executeUpdate();
    }
    return id;
  }
}
