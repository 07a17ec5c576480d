package dev.once.spring.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.DeadMessage;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxStats;
import dev.once.outbox.PausedType;
import dev.once.spring.internal.OnceThreads;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The relay's listener counts by type; the gauges show the last stats read, never read a scrape.
 */
class OutboxMetricsTest {
  private final MeterRegistry meters = new SimpleMeterRegistry();

  @Test
  void theListenerCountsOutcomesAndLatencyByType() {
    MicrometerRelayListener listener = new MicrometerRelayListener(meters);
    OutboxRecord charge = record("provider.charge");
    OutboxRecord mail = record("mail.send");

    listener.delivered(charge, Duration.ofMillis(40));
    listener.delivered(
        new OutboxRecord(2, UUID.randomUUID(), "provider.charge", "agg", "{}", 3, Instant.now()),
        Duration.ofMillis(60));
    listener.retried(charge, "timeout", Instant.now());
    listener.dead(mail, "refused");
    listener.claimLost(mail);

    assertThat(count(MicrometerRelayListener.DELIVERED, "provider.charge")).isEqualTo(2);
    assertThat(count(MicrometerRelayListener.DELIVERED, "mail.send")).isZero();
    assertThat(count(MicrometerRelayListener.RETRIED, "provider.charge")).isEqualTo(1);
    assertThat(count(MicrometerRelayListener.DEAD, "mail.send")).isEqualTo(1);
    assertThat(count(MicrometerRelayListener.CLAIMS_LOST, "mail.send")).isEqualTo(1);
    var latency =
        meters.get(MicrometerRelayListener.LATENCY).tag("type", "provider.charge").timer();
    assertThat(latency.count()).isEqualTo(2);
    assertThat(latency.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(100.0);
    var attempts =
        meters.get(MicrometerRelayListener.ATTEMPTS).tag("type", "provider.charge").summary();
    assertThat(attempts.count()).isEqualTo(2);
    assertThat(attempts.totalAmount()).isEqualTo(4.0);
    assertThat(attempts.max()).isEqualTo(3.0);
  }

  @Test
  void gaugesShowTheLastStatsAndAScrapeDoesNotQuery() {
    AtomicReference<OutboxStats> stats =
        new AtomicReference<>(new OutboxStats(12, Duration.ofMillis(3500), 2));
    AtomicInteger reads = new AtomicInteger();
    OutboxGauges gauges =
        new OutboxGauges(admin(stats, reads), meters, Duration.ofHours(1), OnceThreads.platform());

    gauges.refresh();
    double backlog = meters.get(OutboxGauges.BACKLOG).gauge().value();
    double age = meters.get(OutboxGauges.OLDEST_DUE_AGE).gauge().value();
    double dead = meters.get(OutboxGauges.DEAD_ROWS).gauge().value();

    assertThat(backlog).isEqualTo(12);
    assertThat(age).isEqualTo(3.5);
    assertThat(dead).isEqualTo(2);
    assertThat(reads).hasValue(1);

    stats.set(new OutboxStats(0, Duration.ZERO, 3));
    gauges.refresh();
    assertThat(meters.get(OutboxGauges.BACKLOG).gauge().value()).isZero();
    assertThat(meters.get(OutboxGauges.DEAD_ROWS).gauge().value()).isEqualTo(3);

    stats.set(null);
    gauges.refresh();
    assertThat(meters.get(OutboxGauges.DEAD_ROWS).gauge().value()).isEqualTo(3);
  }

  @Test
  void gaugesShowThePausedTypesAndHowLongEachHasBeenPaused() {
    AtomicReference<OutboxStats> stats =
        new AtomicReference<>(new OutboxStats(0, Duration.ZERO, 0));
    OutboxAdmin stub = admin(stats, new AtomicInteger());
    AtomicReference<List<PausedType>> paused =
        new AtomicReference<>(
            List.of(
                new PausedType("provider.charge", Instant.now().minusSeconds(90), "ops", null)));
    OutboxAdmin admin =
        new OutboxAdmin() {
          @Override
          public List<DeadMessage> dead(long afterId, int limit) {
            return stub.dead(afterId, limit);
          }

          @Override
          public boolean requeue(long id) {
            return stub.requeue(id);
          }

          @Override
          public OutboxStats stats() {
            return stub.stats();
          }

          @Override
          public List<PausedType> paused() {
            return paused.get();
          }

          @Override
          public Duration oldestClaimableAge() {
            return stub.oldestClaimableAge();
          }
        };
    OutboxGauges gauges =
        new OutboxGauges(admin, meters, Duration.ofHours(1), OnceThreads.platform());

    gauges.refresh();

    assertThat(meters.get(OutboxGauges.PAUSED_TYPES).gauge().value()).isEqualTo(1);
    assertThat(meters.get(OutboxGauges.PAUSED_FOR).tag("type", "provider.charge").gauge().value())
        .isGreaterThanOrEqualTo(90);

    paused.set(List.of());
    gauges.refresh();
    assertThat(meters.get(OutboxGauges.PAUSED_TYPES).gauge().value()).isZero();
    assertThat(meters.find(OutboxGauges.PAUSED_FOR).gauges()).as("resumed: gone").isEmpty();
  }

  private double count(String name, String type) {
    var counter = meters.find(name).tag("type", type).counter();
    return counter == null ? 0 : counter.count();
  }

  private static OutboxRecord record(String type) {
    return new OutboxRecord(1, UUID.randomUUID(), type, "agg", "{}", 1, Instant.now());
  }

  /** An admin whose stats come from {@code stats}; a {@code null} there is a database failure. */
  private static OutboxAdmin admin(AtomicReference<OutboxStats> stats, AtomicInteger reads) {
    return new OutboxAdmin() {
      @Override
      public List<DeadMessage> dead(long afterId, int limit) {
        return List.of();
      }

      @Override
      public boolean requeue(long id) {
        return false;
      }

      @Override
      public OutboxStats stats() {
        reads.incrementAndGet();
        OutboxStats s = stats.get();
        if (s == null) {
          throw new IllegalStateException("database down");
        }
        return s;
      }

      @Override
      public Duration oldestClaimableAge() {
        return stats().oldestDueAge();
      }
    };
  }
}
