package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The ledger's invariants (G4), checked over the whole database: every balance is the sum of its
 * journal rows and never negative, every row's {@code balance_after} is the running sum in journal
 * order, and no payment is refunded beyond its amount or differently from its refund rows.
 */
public final class LedgerInvariants {
  private LedgerInvariants() {}

  /** Fails naming the first offending rows. */
  public static void assertHold(JdbcClient jdbc) {
    assertThat(
            jdbc.sql(
                    """
                    SELECT a.id FROM account a
                    LEFT JOIN (SELECT account_id, sum(amount) AS total
                               FROM operation GROUP BY account_id) o ON o.account_id = a.id
                    WHERE a.balance <> COALESCE(o.total, 0) OR a.balance < 0
                    """)
                .query(String.class)
                .list())
        .as("accounts whose balance is not the sum of their operations, or negative")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT id FROM (
                        SELECT id, balance_after,
                               sum(amount) OVER (PARTITION BY account_id ORDER BY seq) AS running
                        FROM operation) rows
                    WHERE balance_after <> running OR balance_after < 0
                    """)
                .query(String.class)
                .list())
        .as("operations whose balance_after is not the running sum")
        .isEmpty();
    assertThat(
            jdbc.sql(
                    """
                    SELECT p.id FROM payment p
                    LEFT JOIN (SELECT payment_id, sum(amount) AS total
                               FROM refund WHERE status <> 'failed'
                               GROUP BY payment_id) r ON r.payment_id = p.id
                    WHERE p.refunded <> COALESCE(r.total, 0) OR p.refunded > p.amount
                    """)
                .query(String.class)
                .list())
        .as("payments refunded beyond their amount or unlike their refunds")
        .isEmpty();
  }
}
