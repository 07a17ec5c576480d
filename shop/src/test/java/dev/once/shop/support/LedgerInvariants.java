package dev.once.shop.support;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The ledger's invariants (G4), checked over the whole database after every test: every balance is
 * the sum of its journal rows and never negative, every row's {@code balance_after} is the running
 * sum in journal order, every reversal undoes one charge or refund exactly, refunds stay within
 * their payment and are credited only when confirmed, every paid order has its succeeded payment,
 * and every payment has one charge, reversed exactly when it failed. The queries are once-verify's
 * ({@link InvariantQueries}).
 */
public final class LedgerInvariants {
  private LedgerInvariants() {}

  /** Fails naming the first offending rows. */
  public static void assertHold(JdbcClient jdbc) {
    InvariantQueries.assertHolds(
        jdbc,
        "account-balance",
        "accounts whose balance is not the sum of their operations, or negative");
    InvariantQueries.assertHolds(
        jdbc, "journal-running-balance", "operations whose balance_after is not the running sum");
    InvariantQueries.assertHolds(
        jdbc, "reversals", "reversals that do not undo exactly one charge or refund");
    InvariantQueries.assertHolds(
        jdbc,
        "refunds-within-payment",
        "payments refunded beyond their amount, unlike their refunds, or credited unconfirmed");
    InvariantQueries.assertHolds(
        jdbc, "payment-charges", "payments without their one charge, or charges without payment");
  }
}
