package dev.once.shop.support;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Row counts of every table a request can write, to prove that a refused request wrote nothing.
 *
 * @param clients rows of {@code client}
 * @param accounts rows of {@code account}
 * @param operations rows of the journal
 * @param payments rows of {@code payment}
 * @param refunds rows of {@code refund}
 * @param outbox rows of {@code once.outbox}
 * @param balances the sum of all balances
 * @param products rows of {@code product}
 * @param orders rows of {@code orders}
 * @param orderItems rows of {@code order_item}
 * @param reservations rows of {@code reservation}
 * @param stock every product's stock columns summed, {@code available/reserved/restocked}
 * @param orderStates a digest of every order's status, payment and refund
 */
public record RowCounts(
    long clients,
    long accounts,
    long operations,
    long payments,
    long refunds,
    long outbox,
    String balances,
    long products,
    long orders,
    long orderItems,
    long reservations,
    String stock,
    String orderStates) {

  public static RowCounts of(JdbcClient jdbc) {
    return jdbc.sql(
            """
            SELECT (SELECT count(*) FROM client) AS clients,
                   (SELECT count(*) FROM account) AS accounts,
                   (SELECT count(*) FROM operation) AS operations,
                   (SELECT count(*) FROM payment) AS payments,
                   (SELECT count(*) FROM refund) AS refunds,
                   (SELECT count(*) FROM once.outbox) AS outbox,
                   (SELECT COALESCE(sum(balance), 0)::text FROM account) AS balances,
                   (SELECT count(*) FROM product) AS products,
                   (SELECT count(*) FROM orders) AS orders,
                   (SELECT count(*) FROM order_item) AS order_items,
                   (SELECT count(*) FROM reservation) AS reservations,
                   (SELECT COALESCE(sum(available), 0) || '/' || COALESCE(sum(reserved), 0)
                           || '/' || COALESCE(sum(restocked), 0) FROM product) AS stock,
                   (SELECT md5(COALESCE(string_agg(id || status || COALESCE(payment_id, '-')
                                                   || COALESCE(refund_id, '-'), ',' ORDER BY id),
                                        '')) FROM orders) AS order_states
            """)
        .query(
            (rs, row) ->
                new RowCounts(
                    rs.getLong("clients"),
                    rs.getLong("accounts"),
                    rs.getLong("operations"),
                    rs.getLong("payments"),
                    rs.getLong("refunds"),
                    rs.getLong("outbox"),
                    rs.getString("balances"),
                    rs.getLong("products"),
                    rs.getLong("orders"),
                    rs.getLong("order_items"),
                    rs.getLong("reservations"),
                    rs.getString("stock"),
                    rs.getString("order_states")))
        .single();
  }
}
