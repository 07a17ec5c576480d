package dev.once.verify.check;

import dev.once.verify.report.Verdict;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The guarantees of the shop (issue 11), checked over a whole database with read-only queries, all
 * in one {@code REPEATABLE READ READ ONLY} transaction so that every invariant sees the same
 * snapshot. The queries follow the shop's schema (shop/src/main/resources/db/migration) and Once's
 * (schema {@code once}). Each is one file of {@code shop/src/test/resources/invariants} ({@link
 * InvariantSql}), which the shop's own tests check after every test too where they hold between two
 * tests ({@code LedgerInvariants}, {@code StockInvariants}): one definition of each invariant.
 *
 * <p>Most invariants hold in every committed state, whatever the relay has delivered yet; the two
 * outbox invariants hold only once the system is quiet (every event delivered), which is when the
 * checker is meant to run: after a chaos run, or on a shop at rest.
 *
 * <p>Usage: {@code new Invariants(allowDead).evaluate(connection)}, one {@link Verdict} per
 * invariant, in the order of {@link #ids()}.
 */
public final class Invariants {
  /** How many violating ids a verdict lists at most. */
  public static final int EXAMPLES = Verdict.EXAMPLES;

  /** 1a. The query is {@code invariants/account-balance.sql}, which says what it guards. */
  static final Invariant ACCOUNT_BALANCE =
      Invariant.of(
          "account-balance",
          "balance = sum of the account's journal, and >= 0",
          "SELECT count(*) FROM account");

  /** 1b. The query is {@code invariants/journal-running-balance.sql}, which says what it guards. */
  static final Invariant JOURNAL_RUNNING_BALANCE =
      Invariant.of(
          "journal-running-balance",
          "each journal row's balance_after = running sum in seq order, and >= 0",
          "SELECT count(*) FROM operation");

  /** 2. The query is {@code invariants/reversals.sql}, which says what it guards. */
  static final Invariant REVERSALS =
      Invariant.of(
          "reversals",
          "each reversal undoes one charge/refund of its account exactly, none reversed twice",
          "SELECT count(*) FROM operation WHERE kind = 'reversal'");

  /** 3. The query is {@code invariants/refunds-within-payment.sql}, which says what it guards. */
  static final Invariant REFUNDS =
      Invariant.of(
          "refunds-within-payment",
          "refunds per payment = payment.refunded <= amount; credited iff confirmed",
          paymentsAndOrphans("refund", "refund", "operation_id"));

  /** 4a. The query is {@code invariants/outbox-drained.sql}, which says what it guards. */
  static final Invariant OUTBOX_PENDING =
      Invariant.of(
          "outbox-drained",
          "no outbox row still pending (the backlog)",
          "SELECT count(*) FROM once.outbox");

  /**
   * 4b. The query is {@code invariants/outbox-no-dead.sql}; a dead row is only a warning under
   * {@code --allow-dead}.
   */
  static Invariant outboxDead(boolean allowDead) {
    return new Invariant(
        "outbox-no-dead",
        "no outbox row dead" + (allowDead ? " (allowed: --allow-dead)" : ""),
        "SELECT count(*) FROM once.outbox",
        InvariantSql.violations("outbox-no-dead"),
        allowDead);
  }

  /** 5. The query is {@code invariants/keys-settled.sql}, which says what it guards. */
  static final Invariant KEYS_SETTLED =
      Invariant.of(
          "keys-settled",
          "no idempotency key left in progress",
          "SELECT count(*) FROM once.idempotency_key");

  /** 6. The query is {@code invariants/stock.sql}, which says what it guards. */
  static final Invariant STOCK =
      Invariant.of(
          "stock",
          "available + reserved = initial + restocked, both >= 0, reserved = sum of held",
          "SELECT count(*) FROM product");

  /** 7a. The query is {@code invariants/order-status.sql}, which says what it guards. */
  static final Invariant ORDER_STATUS =
      Invariant.of(
          "order-status",
          "reserved/paid orders hold every line; rejected hold none and have no payment",
          "SELECT count(*) FROM orders");

  /** 7b. The query is {@code invariants/reservation-states.sql}, which says what it guards. */
  static final Invariant RESERVATION_STATES =
      Invariant.of(
          "reservation-states",
          "one row per order line; released/void only if cancelled; held only if live",
          "SELECT count(*) FROM reservation");

  /** 8a. The query is {@code invariants/paid-orders.sql}, which says what it guards. */
  static final Invariant PAID_ORDERS =
      Invariant.of(
          "paid-orders",
          "each paid order has a succeeded payment of its total from its account",
          "SELECT count(*) FROM orders WHERE status = 'paid'");

  /** 8b. The query is {@code invariants/payment-charges.sql}, which says what it guards. */
  static final Invariant PAYMENT_CHARGES =
      Invariant.of(
          "payment-charges",
          "each payment has one charge of its amount, reversed iff failed; no orphan charge",
          paymentsAndOrphans("charge", "payment", "charge_operation_id"));

  /**
   * What the two payment invariants are about: every payment, and every operation of {@code kind}
   * that no row of {@code table} names in {@code column} (an orphan, which they report too).
   */
  private static String paymentsAndOrphans(String kind, String table, String column) {
    return "SELECT (SELECT count(*) FROM payment) + (SELECT count(*) FROM operation o"
        + (" WHERE o.kind = '" + kind + "' AND NOT EXISTS (SELECT 1 FROM " + table + " t")
        + (" WHERE t." + column + " = o.id))");
  }

  private final List<Invariant> invariants;

  /**
   * @param allowDead whether dead outbox rows are only a warning
   */
  public Invariants(boolean allowDead) {
    this.invariants =
        List.of(
            ACCOUNT_BALANCE,
            JOURNAL_RUNNING_BALANCE,
            REVERSALS,
            REFUNDS,
            OUTBOX_PENDING,
            outboxDead(allowDead),
            KEYS_SETTLED,
            STOCK,
            ORDER_STATUS,
            RESERVATION_STATES,
            PAID_ORDERS,
            PAYMENT_CHARGES);
  }

  /** The invariants' ids, in the order {@link #evaluate} answers. */
  public List<String> ids() {
    return invariants.stream().map(Invariant::id).toList();
  }

  /**
   * Evaluates every invariant in one read-only snapshot. The connection's auto-commit, read-only
   * flag and isolation are restored afterwards; nothing is written.
   */
  public List<Verdict> evaluate(Connection connection) throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    boolean readOnly = connection.isReadOnly();
    int isolation = connection.getTransactionIsolation();
    connection.setAutoCommit(false);
    try {
      connection.setReadOnly(true);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      List<Verdict> verdicts = new ArrayList<>();
      for (Invariant invariant : invariants) {
        verdicts.add(evaluate(connection, invariant));
      }
      return verdicts;
    } finally {
      connection.rollback();
      connection.setAutoCommit(autoCommit);
      connection.setReadOnly(readOnly);
      connection.setTransactionIsolation(isolation);
    }
  }

  private static Verdict evaluate(Connection connection, Invariant invariant) throws SQLException {
    long checked;
    long violations = 0;
    List<String> examples = new ArrayList<>();
    try (Statement s = connection.createStatement()) {
      try (ResultSet rs = s.executeQuery(invariant.checkedSql())) {
        rs.next();
        checked = rs.getLong(1);
      }
      // Shorter ids first, so that "ord-9" comes before "ord-10" and outbox ids sort as numbers.
      String sql =
          "SELECT count(*) OVER () AS n, v.id FROM ("
              + invariant.violationsSql()
              + ") AS v (id) ORDER BY length(v.id), v.id LIMIT "
              + EXAMPLES;
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          violations = rs.getLong(1);
          examples.add(rs.getString(2));
        }
      }
    } catch (SQLException e) {
      throw new SQLException(
          "invariant " + invariant.id() + ": " + e.getMessage(), e.getSQLState(), e);
    }
    Verdict.Status status =
        violations == 0
            ? Verdict.Status.PASS
            : invariant.allowed() ? Verdict.Status.WARN : Verdict.Status.FAIL;
    return new Verdict(
        invariant.id(), invariant.description(), status, checked, violations, examples);
  }
}
