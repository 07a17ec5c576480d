package dev.once.verify.bench;

import dev.once.verify.check.InvariantSql;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.Sql;
import dev.once.verify.report.OrdersResult;
import dev.once.verify.stats.Percentiles;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the orders scenario reads in its database, as the database's owner (who may read every
 * table, whatever the application role is granted): the deadlocks PostgreSQL counted, whether every
 * order left {@code placed}, the time from place ({@code orders.created_at}) to reserved ({@code
 * orders.reserved_at}), and per product that {@code available + reserved = initial_stock +
 * restocked} and that {@code reserved} is the sum of its held reservations.
 */
final class OrderReadings {
  static final String DEADLOCKS = "SELECT deadlocks FROM pg_stat_database WHERE datname = ?";

  static final String PLACED = "SELECT count(*) FROM orders WHERE status = 'placed'";

  /** Orders created from 1 on, by status. */
  static final String STATUSES =
      "SELECT status, count(*) FROM orders WHERE created_at >= ? GROUP BY status";

  /** Microseconds from place to reserved of the orders created from 1 until 2. */
  static final String PLACE_TO_RESERVED =
      "SELECT (EXTRACT(EPOCH FROM reserved_at - created_at) * 1000000)::bigint FROM orders"
          + " WHERE created_at >= ? AND created_at < ? AND reserved_at IS NOT NULL";

  /**
   * The products that break the stock invariant, with their counts: which ones is the invariant's
   * own query ({@code invariants/stock.sql}, shared with {@code once-verify check} and the shop's
   * tests); this only reads the counts of those it names.
   */
  static final String STOCK_PROBLEMS =
      """
      SELECT p.client_id || '/' || p.sku, p.available, p.reserved, p.initial_stock, p.restocked,
             (SELECT COALESCE(sum(r.quantity), 0) FROM reservation r
              WHERE r.client_id = p.client_id AND r.sku = p.sku AND r.state = 'held')
      FROM product p
      WHERE p.client_id || '/' || p.sku IN (%s)
      ORDER BY 1
      """
          .formatted(InvariantSql.violations("stock"));

  static final String PRODUCTS = "SELECT count(*) FROM product";

  private final BenchDatabase db;
  private final String database;

  OrderReadings(BenchDatabase db, String database) {
    this.db = db;
    this.database = database;
  }

  /**
   * {@code pg_stat_database.deadlocks} of the database. A session reports its counts when it
   * commits, goes idle or ends, so read it after the shop has stopped.
   */
  long deadlocks() throws SQLException {
    try (Sql sql = new Sql(db.connectAsOwner(database))) {
      return sql.rows(DEADLOCKS, rs -> rs.getLong(1), database).stream().findFirst().orElse(-1L);
    }
  }

  /**
   * Polls every {@code poll} until no order is {@code placed} or {@code limit} has passed, telling
   * {@code progress} every few seconds how many are left. Returns how long it took in milliseconds,
   * or -1 if some were still placed at the end.
   */
  long awaitNonePlaced(Duration limit, Duration poll, Consumer<String> progress)
      throws SQLException, InterruptedException {
    long start = System.nanoTime();
    long nextReport = start + Duration.ofSeconds(5).toNanos();
    try (Sql sql = new Sql(db.connectAsOwner(database))) {
      while (true) {
        long placed = sql.number(PLACED);
        long now = System.nanoTime();
        if (placed == 0) {
          return (now - start) / 1_000_000;
        }
        if (now - start >= limit.toNanos()) {
          return -1;
        }
        if (now >= nextReport) {
          progress.accept(placed + " orders still placed");
          nextReport = now + Duration.ofSeconds(5).toNanos();
        }
        Thread.sleep(poll.toMillis()); // polling the relay's progress; not a test
      }
    }
  }

  /**
   * Reads the outcome of the orders placed from {@code runStart} on, with place-to-reserved
   * latencies of those placed in the measured window [{@code windowStart}, {@code windowEnd}).
   */
  OrdersResult outcome(
      String title,
      Instant runStart,
      Instant windowStart,
      Instant windowEnd,
      long drainMillis,
      long deadlocks)
      throws SQLException {
    try (Connection c = db.connectAsOwner(database)) {
      long orders = 0;
      long rejected = 0;
      long placed = 0;
      try (PreparedStatement s = c.prepareStatement(STATUSES)) {
        s.setObject(1, utc(runStart));
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            long n = rs.getLong(2);
            orders += n;
            if ("rejected".equals(rs.getString(1))) {
              rejected = n;
            } else if ("placed".equals(rs.getString(1))) {
              placed = n;
            }
          }
        }
      }
      long[] micros;
      try (PreparedStatement s = c.prepareStatement(PLACE_TO_RESERVED)) {
        s.setObject(1, utc(windowStart));
        s.setObject(2, utc(windowEnd));
        List<Long> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            values.add(rs.getLong(1));
          }
        }
        micros = values.stream().mapToLong(Long::longValue).toArray();
      }
      int products;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(PRODUCTS)) {
        rs.next();
        products = rs.getInt(1);
      }
      long[] p = percentilesNanos(micros);
      return new OrdersResult(
          title,
          orders,
          micros.length,
          p[0],
          p[1],
          drainMillis,
          rejected,
          placed,
          deadlocks,
          products,
          stockProblems(c));
    }
  }

  /** p50 and p99 in nanoseconds of latencies in microseconds (any order); -1 each if none. */
  static long[] percentilesNanos(long[] micros) {
    if (micros.length == 0) {
      return new long[] {-1, -1};
    }
    long[] sorted = micros.clone();
    Arrays.sort(sorted);
    return new long[] {Percentiles.of(sorted, 0.50) * 1_000, Percentiles.of(sorted, 0.99) * 1_000};
  }

  /** One line per product that breaks the stock invariant, with its counts. */
  static List<String> stockProblems(Connection c) throws SQLException {
    List<String> problems = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(STOCK_PROBLEMS)) {
      while (rs.next()) {
        problems.add(
            "stock of "
                + rs.getString(1)
                + " breaks available + reserved = initial + restocked, both >= 0, reserved ="
                + " held: available "
                + rs.getLong(2)
                + ", reserved "
                + rs.getLong(3)
                + ", initial "
                + rs.getLong(4)
                + ", restocked "
                + rs.getLong(5)
                + ", held "
                + rs.getLong(6));
      }
    }
    return problems;
  }

  private static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
