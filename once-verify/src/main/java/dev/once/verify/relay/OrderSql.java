package dev.once.verify.relay;

import static dev.once.verify.relay.RelayTable.f;

import dev.once.verify.harness.Sql;
import dev.once.verify.stats.Percentiles;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The statements that follow orders through the shop's database, for the phases {@code drain},
 * {@code orders} and {@code paced}, and what they read. An order is two events from commit to
 * consumer effect: {@code order.placed} (reserve-stock writes its reservation rows and appends
 * {@code stock.reserved}) and {@code stock.reserved} (the orders consumer sets {@code
 * orders.reserved_at}).
 */
final class OrderSql {
  private OrderSql() {}

  /** One count from one statement: {@link Sql#number}, or {@link PgCounters#number} (counted). */
  interface Count {
    long count(String sql, Object... params) throws SQLException;
  }

  static final String PLACED_SINCE = "SELECT count(*) FROM orders WHERE created_at >= ?";

  static final String RESERVED_SINCE =
      "SELECT count(*) FROM orders WHERE created_at >= ? AND reserved_at IS NOT NULL";

  static final String REJECTED_SINCE =
      "SELECT count(*) FROM orders WHERE created_at >= ? AND status = 'rejected'";

  private static final String STILL_PLACED = "SELECT count(*) FROM orders WHERE status = 'placed'";

  private static final String PENDING_ROWS =
      "SELECT count(*) FROM once.outbox WHERE state = 'pending'";

  private static final String PLACE_TO_RESERVED =
      "SELECT extract(epoch FROM reserved_at - created_at)::float8 FROM orders"
          + " WHERE created_at >= ? AND created_at < ? AND reserved_at IS NOT NULL";

  /** Per order of a window: placed -> its first reservation row, its last one -> reserved. */
  private static final String HOPS =
      """
      SELECT extract(epoch FROM min(r.created_at) - o.created_at)::float8,
             extract(epoch FROM o.reserved_at - max(r.created_at))::float8
      FROM orders o JOIN reservation r ON r.order_id = o.id
      WHERE o.created_at >= ? AND o.created_at < ? AND o.reserved_at IS NOT NULL
      GROUP BY o.id
      """;

  /** The orders placed since a moment: reserved, first and last reserved_at, first reservation. */
  private static final String DRAINED =
      """
      SELECT count(*), extract(epoch FROM min(reserved_at))::float8,
             extract(epoch FROM max(reserved_at))::float8,
             (SELECT extract(epoch FROM min(r.created_at))::float8 FROM reservation r
              JOIN orders x ON x.id = r.order_id WHERE x.created_at >= ?)
      FROM orders WHERE created_at >= ? AND reserved_at IS NOT NULL
      """;

  /**
   * Polls every 100 ms until no order is placed, reporting every 2 s, for at most {@code atMost}.
   *
   * @return how many orders are still placed when it gives up (0: none left)
   */
  static long awaitNonePlaced(Count count, Duration atMost, Consumer<String> progress)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    for (int samples = 1; ; samples++) {
      long placed = count.count(STILL_PLACED);
      if (placed == 0 || System.nanoTime() > deadline) {
        return placed;
      }
      if (samples % 20 == 0) {
        progress.accept(
            f("  %d placed, %d outbox rows pending", placed, count.count(PENDING_ROWS)));
      }
      Thread.sleep(100); // polling the shop's progress; a benchmark, not a test
    }
  }

  /** Place -> reserved of the orders placed in a window, sorted, in seconds. */
  static List<Double> placeToReserved(Sql sql, Instant start, Instant end) throws SQLException {
    List<Double> seconds =
        new ArrayList<>(sql.doubles(PLACE_TO_RESERVED, Timestamp.from(start), Timestamp.from(end)));
    Collections.sort(seconds);
    return seconds;
  }

  /** Where a window's orders waited, hop by hop. */
  record Hops(List<Double> one, List<Double> two) {
    String describe() {
      return f(
          "hop one (placed -> first reservation row) p50 %.3f s, p99 %.3f s; hop two (last"
              + " reservation row -> reserved) p50 %.3f s, p99 %.3f s",
          Percentiles.of(one, 0.50),
          Percentiles.of(one, 0.99),
          Percentiles.of(two, 0.50),
          Percentiles.of(two, 0.99));
    }
  }

  static Hops hops(Sql sql, Instant start, Instant end) throws SQLException {
    List<double[]> rows =
        sql.rows(
            HOPS,
            rs -> new double[] {rs.getDouble(1), rs.getDouble(2)},
            Timestamp.from(start),
            Timestamp.from(end));
    List<Double> one = new ArrayList<>();
    List<Double> two = new ArrayList<>();
    for (double[] row : rows) {
      one.add(row[0]);
      two.add(row[1]);
    }
    Collections.sort(one);
    Collections.sort(two);
    return new Hops(one, two);
  }

  /**
   * A drain's orders, placed since {@code since}: those reserved, and the epoch seconds of the
   * first reservation row and of the first and last order reserved.
   */
  record Drained(long orders, double firstReservation, double firstReserved, double lastReserved) {
    /**
     * Seconds from the drain's first effect (its first reservation row, hop one) to its last (its
     * last order reserved, hop two): both hops, whatever order a transport runs them in.
     */
    double seconds() {
      return lastReserved - firstReservation;
    }

    /**
     * Seconds from the first order reserved to the last, as measured up to issue 38's third pass,
     * stretched by one interval: n orders are reserved in n - 1 intervals.
     */
    double secondsFromFirstReserved() {
      return (lastReserved - firstReserved) / Math.max(1, orders - 1) * orders;
    }
  }

  static Drained drained(Sql sql, Instant since) throws SQLException {
    Timestamp from = Timestamp.from(since);
    return sql.rows(
            DRAINED,
            rs -> new Drained(rs.getLong(1), rs.getDouble(4), rs.getDouble(2), rs.getDouble(3)),
            from,
            from)
        .get(0);
  }
}
