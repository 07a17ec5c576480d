package dev.once.shop.stock;

import static dev.once.shop.persistence.Timestamps.utc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL of products, their stock and the reservations against it. The lines of an order travel as one
 * JSON parameter ({@code [{"sku":…,"quantity":…}]}, read by {@code jsonb_to_recordset}), so a whole
 * order is one statement whatever its length.
 *
 * <p><b>Lock order.</b> Every transaction that changes the stock of several products first locks
 * them all in one statement, in ascending (client, sku) order: {@link #LOCK_FOR_ORDER} for one
 * order (one client, so sku order), {@link #LOCK_PRODUCTS} for a batch of orders (the union of
 * their products, each once), and locks nothing else afterwards that another transaction could hold
 * while waiting for a product. Two transactions that share products therefore queue on the first
 * product they share, and never deadlock, whether each applies one order or a batch.
 */
@Repository
class StockRepository {
  static final String PRODUCT_COLUMNS = "sku, name, price, currency, available, reserved";

  static final String CREATE =
      """
      INSERT INTO product (client_id, sku, name, price, currency, initial_stock, available,
                           created_at, updated_at)
      VALUES (:client, :sku, :name, :price, :currency, :stock, :stock, :now, :now)
      ON CONFLICT (client_id, sku) DO NOTHING
      RETURNING %s
      """
          .formatted(PRODUCT_COLUMNS);

  static final String FIND =
      """
      SELECT %s FROM product WHERE client_id = :client AND sku = :sku
      """
          .formatted(PRODUCT_COLUMNS);

  static final String FIND_ALL =
      """
      SELECT %s FROM product WHERE client_id = :client AND sku IN (:skus)
      """
          .formatted(PRODUCT_COLUMNS);

  static final String RESTOCK =
      """
      UPDATE product
      SET available = available + :quantity, restocked = restocked + :quantity, updated_at = :now
      WHERE client_id = :client AND sku = :sku
      RETURNING %s
      """
          .formatted(PRODUCT_COLUMNS);

  /**
   * Locks the products of an order's lines in ascending sku order (the locking happens above the
   * sort). The first statement of every transaction that changes the stock of an order's products.
   */
  static final String LOCK_FOR_ORDER =
      """
      SELECT p.sku
      FROM jsonb_to_recordset(CAST(:lines AS jsonb)) AS line(sku text, quantity bigint)
      JOIN product p ON p.client_id = :client AND p.sku = line.sku
      ORDER BY p.sku
      FOR UPDATE OF p
      """;

  /**
   * Locks the products {@code :products} names ({@code [{"client":…,"sku":…}]}, each once) in
   * ascending (client, sku) order, in one statement (the locking happens above the sort), and reads
   * their units available (a locked row is read as its latest committed version): the first
   * statement of a batch of reservations or releases. The order is {@link #LOCK_FOR_ORDER}'s for
   * one client, so a batch and a single order take their common products in the same order.
   */
  static final String LOCK_PRODUCTS =
      """
      SELECT p.client_id, p.sku, p.available
      FROM jsonb_to_recordset(CAST(:products AS jsonb)) AS wanted(client text, sku text)
      JOIN product p ON p.client_id = wanted.client AND p.sku = wanted.sku
      ORDER BY p.client_id, p.sku
      FOR UPDATE OF p
      """;

  /**
   * The reservation rows of a batch's orders, read once {@link #LOCK_PRODUCTS} holds the locks (a
   * separate statement, for the reason {@link #LINES} gives). A primary-key lookup per order.
   */
  static final String RESERVATIONS =
      """
      SELECT order_id, sku, state FROM reservation WHERE order_id = ANY(CAST(:orders AS text[]))
      """;

  /**
   * Writes a batch's decisions ({@code :rows}: {@code [{"orderId":…,"clientId":…,"sku":…,
   * "quantity":…,"state":"held"|"rejected"}]}) in one statement: the reservation rows go in with
   * {@code ON CONFLICT DO NOTHING}, in (order, sku) order, and only the held rows that went in move
   * their units, summed per product, so each product's row is updated once per batch. The products
   * are already locked by {@link #LOCK_PRODUCTS}; their CHECK refuses a negative stock.
   */
  static final String WRITE_RESERVATIONS =
      """
      WITH written AS (
          INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
          SELECT r."orderId", r."clientId", r.sku, r.quantity, r.state, :now, :now
          FROM jsonb_to_recordset(CAST(:rows AS jsonb))
               AS r("orderId" text, "clientId" text, sku text, quantity bigint, state text)
          ORDER BY r."orderId", r.sku
          ON CONFLICT (order_id, sku) DO NOTHING
          RETURNING client_id, sku, quantity, state
      ), moved AS (
          SELECT client_id, sku, sum(quantity) AS quantity
          FROM written WHERE state = 'held'
          GROUP BY client_id, sku
      )
      UPDATE product p
      SET available = p.available - moved.quantity, reserved = p.reserved + moved.quantity,
          updated_at = :now
      FROM moved
      WHERE p.client_id = moved.client_id AND p.sku = moved.sku
      """;

  /**
   * What a reservation decides on, read once {@link #LOCK_FOR_ORDER} holds the locks: the units
   * available of each line's product, and the line's reservation if it has one. A line whose
   * product does not exist has no row. A separate statement because, in READ COMMITTED, a statement
   * that waited for a lock sees the rows it did not lock as they were before the wait.
   */
  static final String LINES =
      """
      SELECT line.sku, line.quantity, p.available, r.state
      FROM jsonb_to_recordset(CAST(:lines AS jsonb)) AS line(sku text, quantity bigint)
      JOIN product p ON p.client_id = :client AND p.sku = line.sku
      LEFT JOIN reservation r ON r.order_id = :order AND r.sku = line.sku
      ORDER BY line.sku
      """;

  /**
   * Holds every line: the reservation rows go in with {@code ON CONFLICT DO NOTHING}, and only the
   * rows that went in move their units from available to reserved (the design note's gate). The
   * products are already locked by {@link #LOCK_FOR_ORDER}; their CHECK refuses a negative stock.
   */
  static final String HOLD =
      """
      WITH held AS (
          INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
          SELECT :order, :client, line.sku, line.quantity, 'held', :now, :now
          FROM jsonb_to_recordset(CAST(:lines AS jsonb)) AS line(sku text, quantity bigint)
          ORDER BY line.sku
          ON CONFLICT (order_id, sku) DO NOTHING
          RETURNING sku, quantity
      )
      UPDATE product p
      SET available = p.available - held.quantity, reserved = p.reserved + held.quantity,
          updated_at = :now
      FROM held
      WHERE p.client_id = :client AND p.sku = held.sku
      """;

  /**
   * Records that the order could not be reserved whole: a {@code rejected} row per line whose
   * product exists, so that a late copy of the order's event finds the decision already taken.
   */
  static final String REJECT =
      """
      INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
      SELECT :order, :client, line.sku, line.quantity, 'rejected', :now, :now
      FROM jsonb_to_recordset(CAST(:lines AS jsonb)) AS line(sku text, quantity bigint)
      JOIN product p ON p.client_id = :client AND p.sku = line.sku
      ORDER BY line.sku
      ON CONFLICT (order_id, sku) DO NOTHING
      """;

  /**
   * Releases an order's held lines, once: a held row becomes {@code released} (a compare-and-set)
   * and only those rows give their units back. A line with no reservation yet gets a {@code void}
   * row, so that an order.placed that arrives after its cancellation reserves nothing. The products
   * are already locked by {@link #LOCK_FOR_ORDER}.
   */
  static final String RELEASE =
      """
      WITH released AS (
          INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
          SELECT :order, :client, line.sku, line.quantity, 'void', :now, :now
          FROM jsonb_to_recordset(CAST(:lines AS jsonb)) AS line(sku text, quantity bigint)
          JOIN product p ON p.client_id = :client AND p.sku = line.sku
          ORDER BY line.sku
          ON CONFLICT (order_id, sku) DO UPDATE SET state = 'released', updated_at = :now
          WHERE reservation.state = 'held'
          RETURNING sku, quantity, state
      )
      UPDATE product p
      SET available = p.available + released.quantity, reserved = p.reserved - released.quantity,
          updated_at = :now
      FROM released
      WHERE released.state = 'released' AND p.client_id = :client AND p.sku = released.sku
      RETURNING p.sku
      """;

  /**
   * Writes a batch's release decisions ({@code :rows} as for {@link #WRITE_RESERVATIONS}, {@code
   * "state"} {@code released} for a held line, {@code void} for a line with no reservation) in one
   * statement: the void rows go in with {@code ON CONFLICT DO NOTHING}, the held rows become
   * released (a compare-and-set on {@code held}), and only those give their own units back, summed
   * per product, so each product's row is updated once per batch. The products are already locked
   * by {@link #LOCK_PRODUCTS}.
   */
  static final String WRITE_RELEASES =
      """
      WITH decided AS (
          SELECT * FROM jsonb_to_recordset(CAST(:rows AS jsonb))
                        AS r("orderId" text, "clientId" text, sku text, quantity bigint, state text)
      ), voided AS (
          INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at, updated_at)
          SELECT d."orderId", d."clientId", d.sku, d.quantity, 'void', :now, :now
          FROM decided d WHERE d.state = 'void'
          ORDER BY d."orderId", d.sku
          ON CONFLICT (order_id, sku) DO NOTHING
      ), released AS (
          UPDATE reservation r SET state = 'released', updated_at = :now
          FROM decided d
          WHERE d.state = 'released' AND r.order_id = d."orderId" AND r.sku = d.sku
            AND r.state = 'held'
          RETURNING r.client_id, r.sku, r.quantity
      ), moved AS (
          SELECT client_id, sku, sum(quantity) AS quantity FROM released GROUP BY client_id, sku
      )
      UPDATE product p
      SET available = p.available + moved.quantity, reserved = p.reserved - moved.quantity,
          updated_at = :now
      FROM moved
      WHERE p.client_id = moved.client_id AND p.sku = moved.sku
      """;

  private final JdbcClient jdbc;

  StockRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The new product, or empty if the client already has one with this sku. */
  Optional<Product> create(
      String client,
      String sku,
      String name,
      BigDecimal price,
      String currency,
      long stock,
      Instant now) {
    return jdbc.sql(CREATE)
        .param("client", client)
        .param("sku", sku)
        .param("name", name)
        .param("price", price)
        .param("currency", currency)
        .param("stock", stock)
        .param("now", utc(now))
        .query(StockRepository::product)
        .optional();
  }

  Optional<Product> find(String client, String sku) {
    return jdbc.sql(FIND)
        .param("client", client)
        .param("sku", sku)
        .query(StockRepository::product)
        .optional();
  }

  /** The client's products among {@code skus} (not empty); unknown ones are absent. */
  List<Product> findAll(String client, Collection<String> skus) {
    return jdbc.sql(FIND_ALL)
        .param("client", client)
        .param("skus", skus)
        .query(StockRepository::product)
        .list();
  }

  Optional<Product> restock(String client, String sku, long quantity, Instant now) {
    return jdbc.sql(RESTOCK)
        .param("client", client)
        .param("sku", sku)
        .param("quantity", quantity)
        .param("now", utc(now))
        .query(StockRepository::product)
        .optional();
  }

  /** Locks the lines' products in sku order; see {@link #LOCK_FOR_ORDER}. */
  void lockForOrder(String client, String linesJson) {
    jdbc.sql(LOCK_FOR_ORDER)
        .param("client", client)
        .param("lines", linesJson)
        .query(String.class)
        .list();
  }

  /**
   * Locks the products of {@code productsJson} in (client, sku) order; see {@link #LOCK_PRODUCTS}.
   *
   * @return the units available of each product locked (a mutable map)
   */
  Map<ProductKey, Long> lockProducts(String productsJson) {
    Map<ProductKey, Long> available = new HashMap<>();
    jdbc.sql(LOCK_PRODUCTS)
        .param("products", productsJson)
        .query(
            rs -> {
              available.put(
                  new ProductKey(rs.getString("client_id"), rs.getString("sku")),
                  rs.getLong("available"));
            });
    return available;
  }

  /**
   * The states of the reservations of {@code orders}, by order and sku (mutable maps, an order
   * without reservations absent); see {@link #RESERVATIONS}.
   */
  Map<String, Map<String, String>> reservations(List<String> orders) {
    Map<String, Map<String, String>> states = new HashMap<>();
    jdbc.sql(RESERVATIONS)
        .param("orders", orders.toArray(String[]::new))
        .query(
            rs -> {
              states
                  .computeIfAbsent(rs.getString("order_id"), order -> new HashMap<>())
                  .put(rs.getString("sku"), rs.getString("state"));
            });
    return states;
  }

  /** Writes a batch's release decisions; see {@link #WRITE_RELEASES}. */
  void writeReleases(String rowsJson, Instant now) {
    jdbc.sql(WRITE_RELEASES).param("rows", rowsJson).param("now", utc(now)).update();
  }

  /** Writes a batch's decisions; see {@link #WRITE_RESERVATIONS}. */
  void writeReservations(String rowsJson, Instant now) {
    jdbc.sql(WRITE_RESERVATIONS).param("rows", rowsJson).param("now", utc(now)).update();
  }

  /** The order's lines with their products' stock and reservations; see {@link #LINES}. */
  List<LockedLine> lines(String client, String order, String linesJson) {
    return jdbc.sql(LINES)
        .param("client", client)
        .param("order", order)
        .param("lines", linesJson)
        .query(
            (rs, row) ->
                new LockedLine(
                    rs.getString("sku"),
                    rs.getLong("quantity"),
                    rs.getLong("available"),
                    Optional.ofNullable(rs.getString("state"))))
        .list();
  }

  /** Holds every line; the number of products whose stock moved. */
  int hold(String client, String order, String linesJson, Instant now) {
    return jdbc.sql(HOLD)
        .param("client", client)
        .param("order", order)
        .param("lines", linesJson)
        .param("now", utc(now))
        .update();
  }

  void reject(String client, String order, String linesJson, Instant now) {
    jdbc.sql(REJECT)
        .param("client", client)
        .param("order", order)
        .param("lines", linesJson)
        .param("now", utc(now))
        .update();
  }

  /** Releases the held lines; the skus whose units went back. */
  List<String> release(String client, String order, String linesJson, Instant now) {
    return jdbc.sql(RELEASE)
        .param("client", client)
        .param("order", order)
        .param("lines", linesJson)
        .param("now", utc(now))
        .query(String.class)
        .list();
  }

  static Product product(ResultSet rs, int row) throws SQLException {
    return new Product(
        rs.getString("sku"),
        rs.getString("name"),
        rs.getBigDecimal("price"),
        rs.getString("currency"),
        rs.getLong("available"),
        rs.getLong("reserved"));
  }

  /**
   * A line of an order with its product locked.
   *
   * @param reservation the state of the line's reservation, if it has one
   */
  record LockedLine(String sku, long quantity, long available, Optional<String> reservation) {}

  /** A product: its client and sku. */
  record ProductKey(String client, String sku) {}

  /**
   * A decision on one line of an order: {@code held} or {@code rejected} when it is reserved,
   * {@code released} or {@code void} when it is cancelled.
   */
  record Reservation(String orderId, String clientId, String sku, long quantity, String state) {}
}
