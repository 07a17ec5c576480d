package dev.once.spring.metrics;

import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxStats;
import dev.once.outbox.PausedType;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.PeriodicTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The outbox's state as gauges: {@value #BACKLOG} (rows not yet delivered and not dead), {@value
 * #OLDEST_DUE_AGE} (seconds the oldest due row has waited), {@value #DEAD_ROWS}, {@value
 * #PAUSED_TYPES} (message types paused by an operator) and {@value #PAUSED_FOR}, one per paused
 * type (tag {@code type}: seconds since it was paused). They are read from {@link
 * OutboxAdmin#stats()} and {@link OutboxAdmin#paused()} on a background thread every {@code
 * interval}, never on a scrape, so scrapes cost the database nothing. Thread-safe.
 */
final class OutboxGauges implements SmartLifecycle {
  public static final String BACKLOG = "once.outbox.backlog";
  public static final String OLDEST_DUE_AGE = "once.outbox.oldest.due.age";
  public static final String DEAD_ROWS = "once.outbox.dead.rows";
  public static final String PAUSED_TYPES = "once.outbox.paused.types";
  public static final String PAUSED_FOR = "once.outbox.paused.for";

  private static final Logger log = LoggerFactory.getLogger(OutboxGauges.class);

  private final OutboxAdmin admin;
  private final PeriodicTask task;
  private final MultiGauge pausedFor;
  private volatile OutboxStats last = new OutboxStats(0, Duration.ZERO, 0);
  private volatile List<PausedType> paused = List.of();

  public OutboxGauges(
      OutboxAdmin admin, MeterRegistry registry, Duration interval, OnceThreads threads) {
    this.admin = admin;
    this.task =
        new PeriodicTask("once-outbox-stats", Duration.ZERO, interval, this::refresh, threads);
    Gauge.builder(BACKLOG, this, g -> g.last.backlog())
        .description("Outbox rows not yet delivered and not dead")
        .register(registry);
    Gauge.builder(OLDEST_DUE_AGE, this, g -> g.last.oldestDueAge().toMillis() / 1000.0)
        .description("How long the oldest due outbox row has waited past its due time")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder(DEAD_ROWS, this, g -> g.last.dead())
        .description("Outbox rows in the dead state, waiting for an operator")
        .register(registry);
    Gauge.builder(PAUSED_TYPES, this, g -> g.paused.size())
        .description("Outbox message types paused by an operator: no relay attempts their rows")
        .register(registry);
    this.pausedFor =
        MultiGauge.builder(PAUSED_FOR)
            .description("How long each paused outbox message type has been paused")
            .baseUnit("seconds")
            .register(registry);
  }

  private OutboxGauges() {
    this.admin = null;
    this.task = null;
    this.pausedFor = null;
  }

  /** Gauges that register nothing and never read: for an application without a MeterRegistry. */
  public static OutboxGauges none() {
    return new OutboxGauges();
  }

  /** Reads the stats now; on a database failure the gauges keep their last values. */
  public void refresh() {
    try {
      last = admin.stats();
      List<PausedType> now = admin.paused();
      paused = now;
      pausedFor.register(
          now.stream()
              .map(
                  p ->
                      MultiGauge.Row.of(
                          Tags.of("type", p.type()),
                          p,
                          q ->
                              Math.max(0, Duration.between(q.since(), Instant.now()).toMillis())
                                  / 1000.0))
              .toList(),
          true);
    } catch (RuntimeException e) {
      log.warn("Could not read the outbox stats; the gauges keep their last values", e);
    }
  }

  @Override
  public void start() {
    if (admin != null) {
      task.start();
    }
  }

  @Override
  public void stop() {
    if (task != null) {
      task.stop();
    }
  }

  @Override
  public boolean isRunning() {
    return task != null && task.isRunning();
  }
}
