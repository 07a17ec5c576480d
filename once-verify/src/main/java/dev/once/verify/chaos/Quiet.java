package dev.once.verify.chaos;

import java.io.IOException;
import java.io.PrintStream;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The wait after the load until a chaos run is quiet: the outbox drained and nothing pending; with
 * Kafka also the consumer groups at the end of their topics, which may publish more (a reservation
 * after an order), so until the topics hold as many records after a round as before.
 */
final class Quiet {
  private final ChaosRun run;
  private final PrintStream out;
  private final Duration timeout;

  private Quiet(ChaosRun run) {
    this.run = run;
    this.out = run.out;
    this.timeout = run.options.quietTimeout();
  }

  /** Waits until {@code run} is quiet; sets its quiet counts, lag and seconds to quiet. */
  static void reach(ChaosRun run) throws Exception {
    Quiet q = new Quiet(run);
    long quietStart = System.nanoTime();
    run.quiet = q.await();
    if (run.options.kafka()) {
      String bootstrap = run.processes.bootstrap();
      for (int round = 0; round < 20; round++) {
        long before = KafkaReader.records(bootstrap);
        run.lag = KafkaReader.awaitConsumed(bootstrap, q.timeout, q.out);
        if (!run.lag.isEmpty()) {
          run.problem("the consumer groups did not catch up: " + run.lag);
          break;
        }
        run.quiet = q.await();
        if (KafkaReader.records(bootstrap) == before) {
          break;
        }
      }
    }
    run.quietSeconds = (System.nanoTime() - quietStart) / 1_000_000_000L;
  }

  /** Waits for backlog 0 and nothing pending; returns {backlog, pending, dead}. */
  private long[] await() throws InterruptedException, SQLException {
    SQLException unreachable = null;
    long deadline = System.nanoTime() + timeout.toNanos();
    long[] last = {-1, -1, -1};
    long lastPrint = 0;
    while (true) {
      readOutbox(last);
      try {
        last[1] = pending();
        unreachable = null;
      } catch (SQLException e) {
        unreachable = e; // a database that restarts: try again until the quiet timeout
        last[1] = -1;
      }
      if (last[0] == 0 && last[1] == 0) {
        out.println("chaos: quiet: outbox drained, nothing pending");
        return last;
      }
      if (System.nanoTime() - lastPrint > 5_000_000_000L) {
        lastPrint = System.nanoTime();
        out.printf(
            "  waiting: outbox backlog %d, pending %s, dead %d%n",
            last[0],
            unreachable == null ? Long.toString(last[1]) : "? (the database is unreachable)",
            last[2]);
      }
      if (System.nanoTime() > deadline) {
        if (unreachable != null) {
          throw new SQLException(
              "the database at "
                  + run.db.login().jdbcUrl()
                  + " stayed unreachable for the quiet timeout ("
                  + timeout
                  + "): "
                  + unreachable.getMessage(),
              unreachable);
        }
        run.problem(
            "not quiet within " + timeout + ": backlog " + last[0] + ", pending " + last[1]);
        return last;
      }
      Thread.sleep(500);
    }
  }

  /** The outbox's backlog and dead rows into {@code last[0]} and {@code last[2]}, if it answers. */
  private void readOutbox(long[] last) throws InterruptedException {
    try {
      Http.Answer r = run.shop.get("/admin/v1/outbox", run.adminToken);
      if (r.status() == 200) {
        last[0] = Long.parseLong(Http.number(r.body(), "backlog"));
        last[2] = Long.parseLong(Http.number(r.body(), "dead"));
      }
    } catch (IOException e) {
      // a shop that restarts: the caller asks again
    }
  }

  private long pending() throws SQLException {
    return run.db
        .row(
            "SELECT (SELECT count(*) FROM payment WHERE status = 'pending')"
                + " + (SELECT count(*) FROM refund WHERE status = 'pending')")[0];
  }
}
