package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The stock's invariants, checked over the whole database after every test. They hold in every
 * committed state whatever events were delivered, repeated or reordered, and whatever events are
 * still waiting in the outbox (the relay is off in tests, so a cancelled order may still hold its
 * units until a test delivers its {@code order.cancelled}):
 *
 * <ul>
 *   <li>every product's stock is balanced and non-negative, and {@code reserved} is exactly the sum
 *       of its held reservations;
 *   <li>reservations copy the order's lines: same client, sku and quantity;
 *   <li>all or nothing: an order has no reservation, or one per line, all in the same state;
 *   <li>a reserved or paid order holds every line; a rejected order holds nothing;
 *   <li>units are held only for an order that is placed, reserved or paid, or cancelled with its
 *       {@code order.cancelled} not yet consumed by {@code release-stock}.
 * </ul>
 */
public final class StockInvariants {
  private StockInvariants() {}

  /** Fails naming the first offending rows. */
  public static void assertHold(JdbcClient jdbc) {
    assertThat(
            jdbc.sql(
                    """
                    SELECT p.client_id || '/' || p.sku FROM product p
                    LEFT JOIN (SELECT client_id, sku, sum(quantity) AS held FROM reservation
                               WHERE state = 'held' GROUP BY client_id, sku) r
                           ON r.client_id = p.client_id AND r.sku = p.sku
                    WHERE p.available < 0 OR p.reserved < 0
                       OR p.available + p.reserved <> p.initial_stock + p.restocked
                       OR p.reserved <> COALESCE(r.held, 0)
                    """)
                .query(String.class)
                .list())
        .as("products with negative or unbalanced stock, or reserved <> sum of held reservations")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT r.order_id || '/' || r.sku FROM reservation r
                    JOIN orders o ON o.id = r.order_id
                    LEFT JOIN order_item i ON i.order_id = r.order_id AND i.sku = r.sku
                    WHERE i.sku IS NULL OR i.quantity <> r.quantity OR o.client_id <> r.client_id
                    """)
                .query(String.class)
                .list())
        .as("reservations that are not a line of their order")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT o.id FROM orders o
                    JOIN (SELECT order_id, count(*) AS n, count(DISTINCT state) AS states
                          FROM reservation GROUP BY order_id) r ON r.order_id = o.id
                    WHERE r.states <> 1
                       OR r.n <> (SELECT count(*) FROM order_item i WHERE i.order_id = o.id)
                    """)
                .query(String.class)
                .list())
        .as("orders reserved in part: some lines without a reservation, or mixed states")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT o.id || ' ' || o.status FROM orders o
                    WHERE (o.status IN ('reserved', 'paid') AND EXISTS (
                               SELECT 1 FROM order_item i
                               LEFT JOIN reservation r ON r.order_id = i.order_id AND r.sku = i.sku
                               WHERE i.order_id = o.id AND r.state IS DISTINCT FROM 'held'))
                       OR (o.status = 'rejected' AND EXISTS (
                               SELECT 1 FROM reservation r
                               WHERE r.order_id = o.id AND r.state <> 'rejected'))
                    """)
                .query(String.class)
                .list())
        .as("reserved or paid orders that do not hold every line, rejected ones that hold any")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT DISTINCT o.id || ' ' || o.status FROM reservation r
                    JOIN orders o ON o.id = r.order_id
                    WHERE r.state = 'held'
                      AND (o.status NOT IN ('placed', 'reserved', 'paid', 'cancelled')
                           OR (o.status = 'cancelled' AND EXISTS (
                                   SELECT 1 FROM once.outbox e
                                   JOIN once.inbox c ON c.message_id = e.message_id
                                                    AND c.consumer = 'release-stock'
                                   WHERE e.type = 'order.cancelled' AND e.aggregate_id = o.id)))
                    """)
                .query(String.class)
                .list())
        .as("units held for an order that is rejected, or cancelled and released")
        .isEmpty();
  }
}
