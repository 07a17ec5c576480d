package dev.once.spring.metrics;

import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxStats;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.internal.PeriodicTask;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The outbox's state as gauges: {@value #BACKLOG} (rows not yet delivered and not dead), {@value
 * #OLDEST_DUE_AGE} (seconds the oldest due row has waited) and {@value #DEAD_ROWS}. They are read
 * from {@link OutboxAdmin#stats()} on a background thread every {@code interval}, never on a
 * scrape, so scrapes cost the database nothing. Thread-safe.
 */
final class OutboxGauges implements SmartLifecycle {
  public static final String BACKLOG = "once.outbox.backlog";
  public static final String OLDEST_DUE_AGE = "once.outbox.oldest.due.age";
  public static final String DEAD_ROWS = "once.outbox.dead.rows";

  private static final Logger log = LoggerFactory.getLogger(OutboxGauges.class);

  private final OutboxAdmin admin;
  private final PeriodicTask task;
  private volatile OutboxStats last = new OutboxStats(0, Duration.ZERO, 0);

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
  }

  private OutboxGauges() {
    this.admin = null;
    this.task = null;
  }

  /** Gauges that register nothing and never read: for an application without a MeterRegistry. */
  public static OutboxGauges none() {
    return new OutboxGauges();
  }

  /** Reads the stats now; on a database failure the gauges keep their last values. */
  public void refresh() {
    try {
      last = admin.stats();
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
