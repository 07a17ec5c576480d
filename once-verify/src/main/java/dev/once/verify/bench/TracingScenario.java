package dev.once.verify.bench;

import static dev.once.verify.bench.BenchRun.progress;

import dev.once.verify.bench.BenchRun.Tenant;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.Sql;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * The cost of trace context on the payment path (issue 26): new payments on a shop whose tracing
 * auto-configuration is excluded (Boot's no-op tracer: Once stores no context and opens no span)
 * and on the shop as deployed (a tracer, sampling 1.0, every span recorded, no exporter: the
 * request's span and the context stored with each outbox row, restored by the relay's delivery
 * span, the provider call's span and the consumers' spans), each on a fresh shop with its relay on,
 * so that both halves run in the measured window as deployed, the order alternating from round to
 * round so that neither always runs on the warmer machine. Between the two, the backlog is drained,
 * so neither shop's relay settles the other's payments.
 */
final class TracingScenario {
  /** How long a tracing scenario's shop may take to settle its payments before it is closed. */
  static final Duration TRACING_DRAIN = Duration.ofSeconds(60);

  /**
   * The auto-configurations a shop without a tracer excludes: Boot then defines its no-op tracer,
   * which Once's starter treats as none.
   */
  static final String NO_TRACER =
      "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure"
          + ".OpenTelemetryTracingAutoConfiguration,"
          + "org.springframework.boot.micrometer.tracing.autoconfigure"
          + ".MicrometerTracingAutoConfiguration";

  private TracingScenario() {}

  /** This round's untraced and traced scenarios, those asked for, in this round's order. */
  static void run(BenchRun run, Tenant payer) throws Exception {
    List<Scenario> order =
        run.round % 2 == 1
            ? List.of(Scenario.UNTRACED, Scenario.TRACED)
            : List.of(Scenario.TRACED, Scenario.UNTRACED);
    for (Scenario s : order) {
      if (!run.options.runs(s)) {
        continue;
      }
      boolean traced = s == Scenario.TRACED;
      progress("starting the shop " + (traced ? "with its tracer" : "without a tracer"));
      run.startShop(
          BenchDatabase.DATABASE,
          true,
          "shop-" + s.id() + "-" + run.round + ".log",
          traced ? List.of() : List.of("--spring.autoconfigure.exclude=" + NO_TRACER));
      run.firstRequest(payer);
      run.scenario(
          run.runner(), s, run.options.connections(), run.http(payer).newPayments(run.tag(s.id())));
      // The next shop must not start with this one's backlog: its relay would settle it during
      // the next scenario's window.
      long left = drainOutbox(run.db, TRACING_DRAIN);
      if (left > 0) {
        progress(left + " outbox rows still pending after " + TRACING_DRAIN + " (" + s.id() + ")");
      }
      run.closeShop(null);
    }
  }

  /**
   * Waits, at most {@code limit}, until the payments database holds no pending outbox row (the
   * running shop's relay settled every payment); the rows still pending then.
   */
  private static long drainOutbox(BenchDatabase db, Duration limit)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    try (Sql sql = new Sql(db.connectAsApplication())) {
      while (true) {
        long left = sql.number("SELECT count(*) FROM once.outbox WHERE state = 'pending'");
        if (left == 0 || System.nanoTime() >= deadline) {
          return left;
        }
        Thread.sleep(OrdersScenario.RESERVE_POLL.toMillis());
      }
    }
  }
}
