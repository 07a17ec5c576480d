package dev.once.spring.metrics;

import dev.once.outbox.OutboxRecord;
import dev.once.outbox.RelayListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;

/**
 * Counts the relay's outcomes in Micrometer, tagged {@code type} (the message type; bounded by the
 * registered handlers): {@value #DELIVERED}, {@value #RETRIED}, {@value #DEAD}, {@value
 * #CLAIMS_LOST}, the time from a row's commit to its delivery as the timer {@value #LATENCY}, and
 * how many attempts each delivered row took as the distribution {@value #ATTEMPTS}, and the rows
 * each non-empty claim returned as the distribution {@value #CLAIM}. Thread-safe.
 */
final class MicrometerRelayListener implements RelayListener {
  public static final String DELIVERED = "once.outbox.delivered";
  public static final String RETRIED = "once.outbox.retried";
  public static final String DEAD = "once.outbox.dead";
  public static final String CLAIMS_LOST = "once.outbox.claims.lost";
  public static final String LATENCY = "once.outbox.delivery.latency";
  public static final String ATTEMPTS = "once.outbox.delivery.attempts";
  public static final String CLAIM = "once.outbox.claim";

  private final MeterRegistry registry;

  public MicrometerRelayListener(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void claimed(int rows, int limit) {
    DistributionSummary.builder(CLAIM)
        .description("Rows returned by one claim of the outbox relay")
        .baseUnit("rows")
        .register(registry)
        .record(rows);
  }

  @Override
  public void delivered(OutboxRecord message, Duration sinceCommit) {
    counter(DELIVERED, "Outbox rows delivered", message).increment();
    Timer.builder(LATENCY)
        .description("Time from an outbox row's commit to its delivery")
        .tag("type", message.type())
        .register(registry)
        .record(sinceCommit.isNegative() ? Duration.ZERO : sinceCommit);
    DistributionSummary.builder(ATTEMPTS)
        .description("Attempts a delivered outbox row took, the successful one included")
        .tag("type", message.type())
        .register(registry)
        .record(message.attempt());
  }

  @Override
  public void retried(OutboxRecord message, String reason, Instant nextAttemptAt) {
    counter(RETRIED, "Outbox delivery attempts that failed and will be retried", message)
        .increment();
  }

  @Override
  public void dead(OutboxRecord message, String reason) {
    counter(DEAD, "Outbox rows that turned dead", message).increment();
  }

  @Override
  public void claimLost(OutboxRecord message) {
    counter(CLAIMS_LOST, "Outbox outcomes discarded because the claim had run out", message)
        .increment();
  }

  private Counter counter(String name, String description, OutboxRecord message) {
    return Counter.builder(name)
        .description(description)
        .tag("type", message.type())
        .register(registry);
  }
}
