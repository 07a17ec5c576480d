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
 */
public record RowCounts(
    long clients,
    long accounts,
    long operations,
    long payments,
    long refunds,
    long outbox,
    String balances) {

  public static RowCounts of(JdbcClient jdbc) {
    return jdbc.sql(
            """
            SELECT (SELECT count(*) FROM client) AS clients,
                   (SELECT count(*) FROM account) AS accounts,
                   (SELECT count(*) FROM operation) AS operations,
                   (SELECT count(*) FROM payment) AS payments,
                   (SELECT count(*) FROM refund) AS refunds,
                   (SELECT count(*) FROM once.outbox) AS outbox,
                   (SELECT COALESCE(sum(balance), 0)::text FROM account) AS balances
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
                    rs.getString("balances")))
        .single();
  }
}
