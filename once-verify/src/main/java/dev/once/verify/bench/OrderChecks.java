package dev.once.verify.bench;

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
final class OrderChecks {
  static final String DEADLOCKS = "SELECT deadlocks FROM pg_stat_database WHERE datname = ?";

  static final String PLACED = "SELECT count(*) FROM orders WHERE status = 'placed'";

  /** Orders created from 1 on, by status. */
  static final String STATUSES =
      "SELECT status, count(*) FROM orders WHERE created_at >= ? GROUP BY status";

  /** Microseconds from place to reserved of the orders created from 1 until 2. */
  static final String PLACE_TO_RESERVED =
      "SELECT (EXTRACT(EPOCH FROM reserved_at - created_at) * 1000000)::bigint FROM orders"
          + " WHERE created_at >= ? AND created_at < ? AND reserved_at IS NOT NULL";

  static final String STOCK =
      """
      SELECT p.client_id, p.sku, p.initial_stock, p.restocked, p.available, p.reserved,
             COALESCE(h.held, 0) AS held
      FROM product p
      LEFT JOIN (SELECT client_id, sku, sum(quantity) AS held
                 FROM reservation WHERE state = 'held'
                 GROUP BY client_id, sku) h
             ON h.client_id = p.client_id AND h.sku = p.sku
      ORDER BY p.client_id, p.sku
      """;

  private final BenchDatabase db;
  private final String database;

  OrderChecks(BenchDatabase db, String database) {
    this.db = db;
    this.database = database;
  }

  /**
   * {@code pg_stat_database.deadlocks} of the database. A session reports its counts when it
   * commits, goes idle or ends, so read it after the shop has stopped.
   */
  long deadlocks() throws SQLException {
    try (Connection c = db.connectAsOwner(database);
        PreparedStatement s = c.prepareStatement(DEADLOCKS)) {
      s.setString(1, database);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
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
    try (Connection c = db.connectAsOwner(database);
        Statement s = c.createStatement()) {
      while (true) {
        long placed;
        try (ResultSet rs = s.executeQuery(PLACED)) {
          rs.next();
          placed = rs.getLong(1);
        }
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
      List<StockRow> stock = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(STOCK)) {
        while (rs.next()) {
          stock.add(
              new StockRow(
                  rs.getString("sku"),
                  rs.getLong("initial_stock"),
                  rs.getLong("restocked"),
                  rs.getLong("available"),
                  rs.getLong("reserved"),
                  rs.getLong("held")));
        }
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
          stock.size(),
          stockProblems(stock));
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

  /** One line per product whose counts do not add up. */
  static List<String> stockProblems(List<StockRow> rows) {
    List<String> problems = new ArrayList<>();
    for (StockRow r : rows) {
      if (r.available() + r.reserved() != r.initialStock() + r.restocked()) {
        problems.add(
            "stock of "
                + r.sku()
                + ": available "
                + r.available()
                + " + reserved "
                + r.reserved()
                + " != initial "
                + r.initialStock()
                + " + restocked "
                + r.restocked());
      }
      if (r.reserved() != r.held()) {
        problems.add(
            "stock of "
                + r.sku()
                + ": reserved "
                + r.reserved()
                + " != "
                + r.held()
                + " held in reservations");
      }
      if (r.available() < 0 || r.reserved() < 0) {
        problems.add(
            "stock of "
                + r.sku()
                + ": negative (available "
                + r.available()
                + ", reserved "
                + r.reserved()
                + ")");
      }
    }
    return problems;
  }

  private static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  /**
   * One product's counts and the sum of the quantities of its reservations in state {@code held}.
   */
  record StockRow(
      String sku, long initialStock, long restocked, long available, long reserved, long held) {}
}
