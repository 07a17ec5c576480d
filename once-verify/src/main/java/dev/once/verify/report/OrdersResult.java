package dev.once.verify.report;

import java.util.ArrayList;
import java.util.List;

/**
 * What the orders scenario found in the database once its load had stopped and the relay had
 * reserved every order (or the wait for it ran out). Its throughput and HTTP latencies are a {@code
 * LoadResult} like every scenario's.
 *
 * @param title the scenario's title, with its round
 * @param orders orders the scenario placed, warm-up included
 * @param measured orders placed in the measured window and reserved: the samples of p50 and p99
 * @param p50Nanos median time from place to reserved ({@code reserved_at - created_at}), or -1 if
 *     there were no samples
 * @param p99Nanos 99th percentile of the same, or -1
 * @param drainMillis how long after the load the last order of the run left {@code placed}, or -1
 *     if some were still placed when the wait ran out
 * @param rejected orders rejected for want of stock (must be 0: the stock never runs out)
 * @param stillPlaced orders still {@code placed} after the wait (must be 0)
 * @param deadlocks deadlocks PostgreSQL detected in the orders' database during the scenario,
 *     {@code pg_stat_database.deadlocks} after minus before (must be 0), or -1 if unreadable
 * @param products products whose stock was checked
 * @param stockProblems one line per broken stock invariant (must be empty)
 */
public record OrdersResult(
    String title,
    long orders,
    long measured,
    long p50Nanos,
    long p99Nanos,
    long drainMillis,
    long rejected,
    long stillPlaced,
    long deadlocks,
    int products,
    List<String> stockProblems) {

  public OrdersResult {
    stockProblems = List.copyOf(stockProblems);
  }

  /** True if no order was rejected or left placed, no deadlock occurred and the stock adds up. */
  public boolean clean() {
    return problems().isEmpty();
  }

  /** What went wrong, one line each; empty if {@link #clean()}. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (rejected != 0) {
      problems.add(rejected + " orders rejected");
    }
    if (stillPlaced != 0) {
      problems.add(stillPlaced + " orders still placed after the wait");
    }
    if (deadlocks != 0) {
      problems.add(
          deadlocks < 0
              ? "deadlocks unknown (pg_stat_database unreadable)"
              : deadlocks + " deadlocks");
    }
    if (orders == 0) {
      problems.add("no order placed");
    }
    problems.addAll(stockProblems);
    return problems;
  }
}
