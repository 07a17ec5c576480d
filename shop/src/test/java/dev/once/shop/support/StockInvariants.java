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
 *
 * <p>The stock and order-status queries are once-verify's ({@link InvariantQueries}).
 */
public final class StockInvariants {
  private StockInvariants() {}

  /** Fails naming the first offending rows. */
  public static void assertHold(JdbcClient jdbc) {
    InvariantQueries.assertHolds(
        jdbc,
        "stock",
        "products with negative or unbalanced stock, or reserved <> sum of held reservations");
    InvariantQueries.assertHolds(
        jdbc,
        "order-status",
        "orders reserved in part, reserved or paid without every line held, or rejected holding"
            + " any or paid");
    // once-verify's reservation-states also requires a released reservation to belong to a
    // cancelled order; the stock module's own tests release reservations of orders they never
    // cancel (BatchReservationTest), so the shop checks the part that holds for them too.
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
