package dev.once.spring.outbox;

import static dev.once.spring.outbox.OutboxTestApplication.CHARGE;
import static dev.once.spring.outbox.OutboxTestApplication.ORDER_PLACED;
import static dev.once.spring.outbox.OutboxTestApplication.RUN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.events.InProcessEventTransport;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxRelay;
import dev.once.spring.metrics.OutboxGaugesRefresh;
import dev.once.spring.outbox.OutboxTestApplication.ChargeHandler;
import dev.once.spring.outbox.OutboxTestApplication.Orders;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay as an application gets it: handler and consumer beans registered, rows delivered after
 * commit and never after a rollback, events applied once per consumer, metrics, and the shutdown.
 * The poll interval is an hour, so every delivery here is the commit's wake-up.
 */
class OutboxRelayAutoConfigurationTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  private final ApplicationContextRunner runner =
      OutboxTestApplication.runner()
          .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
          .withPropertyValues("once.outbox.relay.poll-interval=1h");

  @Test
  void handlersAndConsumersAreRegisteredAndTheRelayRuns() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(OutboxRelay.class);
          assertThat(context.getBean(OutboxRelayLifecycle.class).isRunning()).isTrue();
          assertThat(context.getBean(InProcessEventTransport.class).types())
              .containsExactly(ORDER_PLACED);
        });
  }

  @Test
  void aCommittedRowReachesItsHandlerWithoutWaitingForAPoll() {
    runner.run(
        context -> {
          ChargeHandler handler = context.getBean(ChargeHandler.class);

          OutboxEntry entry = context.getBean(Orders.class).append(CHARGE, "{}");

          await().atMost(PATIENCE).until(() -> handler.handled.contains(entry.messageId()));
        });
  }

  @Test
  void aRolledBackTransactionsRowNeverReachesItsHandler() {
    runner.run(
        context -> {
          ChargeHandler handler = context.getBean(ChargeHandler.class);
          Orders orders = context.getBean(Orders.class);
          AtomicReference<OutboxEntry> rolledBack = new AtomicReference<>();

          assertThatThrownBy(() -> orders.appendAndFail(CHARGE, rolledBack))
              .isInstanceOf(IllegalStateException.class);
          OutboxEntry committed = orders.append(CHARGE, "{}");
          await().atMost(PATIENCE).until(() -> handler.handled.contains(committed.messageId()));
          context.getBean(OutboxRelay.class).runOnce();

          assertThat(rolledBack.get()).isNotNull();
          assertThat(handler.handled).doesNotContain(rolledBack.get().messageId());
          Long rows =
              new JdbcTemplate(context.getBean(DataSource.class))
                  .queryForObject(
                      "SELECT count(*) FROM once.outbox WHERE message_id = ?",
                      Long.class,
                      rolledBack.get().messageId());
          assertThat(rows).isZero();
        });
  }

  @Test
  void anEventReachesTwoConsumersOnceEachEvenWhenItsRowIsDeliveredTwice() {
    runner.run(
        context -> {
          EffectTable effects = new EffectTable(context.getBean(DataSource.class));
          OutboxEntry entry = context.getBean(Orders.class).append(ORDER_PLACED, "{\"n\":1}");
          UUID id = entry.messageId();
          await()
              .atMost(PATIENCE)
              .until(
                  () ->
                      effects.applied(id, "reserve-stock-" + RUN) == 1
                          && effects.applied(id, "send-mail-" + RUN) == 1);

          OutboxRecord again =
              new OutboxRecord(entry.id(), id, ORDER_PLACED, "agg", "{\"n\":1}", 2, Instant.now());
          Delivery second = context.getBean(InProcessEventTransport.class).handle(again);

          assertThat(second).isEqualTo(Delivery.done());
          assertThat(effects.applied(id, "reserve-stock-" + RUN)).isEqualTo(1);
          assertThat(effects.applied(id, "send-mail-" + RUN)).isEqualTo(1);
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          assertThat(
                  meters
                      .get("once.inbox.duplicates")
                      .tag("consumer", "send-mail-" + RUN)
                      .counter()
                      .count())
              .isEqualTo(1.0);
        });
  }

  @Test
  void metricsAreRegisteredAndMove() {
    runner.run(
        context -> {
          MeterRegistry meters = context.getBean(MeterRegistry.class);
          OutboxGaugesRefresh.refresh(context);
          double deadBefore = meters.get("once.outbox.dead.rows").gauge().value();
          assertThat(meters.find("once.outbox.backlog").gauge()).isNotNull();
          assertThat(meters.find("once.outbox.oldest.due.age").gauge()).isNotNull();
          Orders orders = context.getBean(Orders.class);

          orders.append(CHARGE, "{}");
          orders.append(CHARGE, "{\"fail\":true}");

          await()
              .atMost(PATIENCE)
              .until(
                  () ->
                      count(meters, "once.outbox.delivered") >= 1
                          && count(meters, "once.outbox.dead") >= 1);
          assertThat(meters.get("once.outbox.delivery.latency").tag("type", CHARGE).timer().count())
              .isGreaterThanOrEqualTo(1);
          OutboxGaugesRefresh.refresh(context);
          assertThat(meters.get("once.outbox.dead.rows").gauge().value())
              .isGreaterThanOrEqualTo(deadBefore + 1);
        });
  }

  @Test
  void theRelayStopsWithTheContext() {
    AtomicReference<OutboxRelayLifecycle> lifecycle = new AtomicReference<>();
    runner.run(
        context -> {
          lifecycle.set(context.getBean(OutboxRelayLifecycle.class));
          assertThat(lifecycle.get().isRunning()).isTrue();
        });

    assertThat(lifecycle.get().isRunning()).isFalse();
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.isAlive() && t.getName().startsWith("once-relay")));
  }

  private static double count(MeterRegistry meters, String name) {
    var counter = meters.find(name).tag("type", CHARGE).counter();
    return counter == null ? 0 : counter.count();
  }
}
