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
 * (schema {@code once}), and port the shop's test checks {@code LedgerInvariants} and {@code
 * StockInvariants}.
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

  /**
   * 1a. Every account's balance is the sum of its journal rows and is never negative: the balance
   * is a projection kept by the ledger's trigger, and a balance that drifts from its journal is
   * money created or lost.
   */
  static final Invariant ACCOUNT_BALANCE =
      new Invariant(
          "account-balance",
          "balance = sum of the account's journal, and >= 0",
          "SELECT count(*) FROM account",
          """
          SELECT a.id FROM account a
          LEFT JOIN (SELECT account_id, sum(amount) AS total
                     FROM operation GROUP BY account_id) o ON o.account_id = a.id
          WHERE a.balance <> COALESCE(o.total, 0) OR a.balance < 0
          """,
          false);

  /**
   * 1b. Every journal row's {@code balance_after} is the running sum of its account's rows in
   * {@code seq} order, and never negative: statements show it to clients as the balance after the
   * movement, so a wrong one is a wrong statement even when the final balance is right.
   */
  static final Invariant JOURNAL_RUNNING_BALANCE =
      new Invariant(
          "journal-running-balance",
          "each journal row's balance_after = running sum in seq order, and >= 0",
          "SELECT count(*) FROM operation",
          """
          SELECT id FROM (
              SELECT id, balance_after,
                     sum(amount) OVER (PARTITION BY account_id ORDER BY seq) AS running
              FROM operation) rows
          WHERE balance_after <> running OR balance_after < 0
          """,
          false);

  /**
   * 2. Every reversal references exactly one original, a charge or a refund of the same account,
   * and gives back exactly its amount; no original is reversed twice: a reversal is how the
   * append-only ledger corrects a movement, and a second one would give the money back twice.
   */
  static final Invariant REVERSALS =
      new Invariant(
          "reversals",
          "each reversal undoes one charge/refund of its account exactly, none reversed twice",
          "SELECT count(*) FROM operation WHERE kind = 'reversal'",
          """
          SELECT r.id FROM operation r
          LEFT JOIN operation o ON o.id = r.reverses
          WHERE r.kind = 'reversal'
            AND (o.id IS NULL
                 OR o.kind NOT IN ('charge', 'refund')
                 OR o.account_id <> r.account_id
                 OR r.amount <> -o.amount
                 OR (SELECT count(*) FROM operation t
                     WHERE t.kind = 'reversal' AND t.reverses = r.reverses) > 1)
          """,
          false);

  /**
   * 3. Per payment, the refunds that did not fail (pending or succeeded: what the payment holds
   * reserved) sum to {@code payment.refunded}, which never exceeds the payment. A refund moves
   * money only when the provider confirms it: every succeeded refund has its journal credit, of its
   * amount, to the payment's account, against the payment's charge; a pending or failed one has
   * none, except a refund written before the shop's V6 ({@code credited_at_request}), which was
   * credited at request time and whose credit is taken back by a reversal exactly when it failed.
   * And every refund credit in the journal belongs to a refund. So the refund credits of an account
   * add up to its confirmed refunds: otherwise a client could get back money the provider never
   * refunded, or more than it paid.
   */
  static final Invariant REFUNDS =
      new Invariant(
          "refunds-within-payment",
          "refunds per payment = payment.refunded <= amount; credited iff confirmed",
          """
          SELECT (SELECT count(*) FROM payment)
               + (SELECT count(*) FROM operation o WHERE o.kind = 'refund' AND NOT EXISTS (
                      SELECT 1 FROM refund f WHERE f.operation_id = o.id))
          """,
          """
          SELECT p.id FROM payment p
          LEFT JOIN (SELECT payment_id, sum(amount) AS total
                     FROM refund WHERE status <> 'failed'
                     GROUP BY payment_id) r ON r.payment_id = p.id
          WHERE p.refunded <> COALESCE(r.total, 0)
             OR p.refunded > p.amount
             OR COALESCE(r.total, 0) > p.amount
             OR EXISTS (
                 SELECT 1 FROM refund f
                 LEFT JOIN operation o ON o.id = f.operation_id
                 WHERE f.payment_id = p.id
                   AND ((NOT f.credited_at_request
                         AND (f.operation_id IS NOT NULL) <> (f.status = 'succeeded'))
                        OR (f.credited_at_request AND f.operation_id IS NULL)
                        OR (f.operation_id IS NOT NULL
                            AND (o.id IS NULL
                                 OR o.kind <> 'refund'
                                 OR o.amount <> f.amount
                                 OR o.account_id <> p.account_id
                                 OR o.reverses IS DISTINCT FROM p.charge_operation_id
                                 OR (f.status = 'failed') <> EXISTS (
                                        SELECT 1 FROM operation v
                                        WHERE v.kind = 'reversal' AND v.reverses = o.id)))))
          UNION ALL
          SELECT o.id FROM operation o
          WHERE o.kind = 'refund'
            AND NOT EXISTS (SELECT 1 FROM refund f WHERE f.operation_id = o.id)
          """,
          false);

  /**
   * 4a. The outbox is drained, no row is still pending (the violations are the backlog): an
   * undelivered event is an effect the rest of the system has not seen yet, so after a run every
   * one must have been delivered.
   */
  static final Invariant OUTBOX_PENDING =
      new Invariant(
          "outbox-drained",
          "no outbox row still pending (the backlog)",
          "SELECT count(*) FROM once.outbox",
          "SELECT id::text FROM once.outbox WHERE state = 'pending'",
          false);

  /**
   * 4b. No outbox row is dead: a dead row is an event the relay gave up on, an effect that will
   * never happen unless an operator replays it (a warning only under {@code --allow-dead}, for runs
   * that inject poison messages on purpose).
   */
  static Invariant outboxDead(boolean allowDead) {
    return new Invariant(
        "outbox-no-dead",
        "no outbox row dead" + (allowDead ? " (allowed: --allow-dead)" : ""),
        "SELECT count(*) FROM once.outbox",
        "SELECT id::text FROM once.outbox WHERE state = 'dead'",
        allowDead);
  }

  /**
   * 5. No idempotency key is committed in progress: such a key would answer every retry with "in
   * progress" for ever, and the request it stands for may or may not have taken effect.
   */
  static final Invariant KEYS_SETTLED =
      new Invariant(
          "keys-settled",
          "no idempotency key left in progress",
          "SELECT count(*) FROM once.idempotency_key",
          """
          SELECT client_id || '/' || idem_key FROM once.idempotency_key
          WHERE state <> 'completed'
          """,
          false);

  /**
   * 6. Every product's stock is balanced ({@code available + reserved = initial_stock +
   * restocked}), non-negative, and {@code reserved} is the sum of its held reservations: units that
   * appear or vanish are sold twice or never.
   */
  static final Invariant STOCK =
      new Invariant(
          "stock",
          "available + reserved = initial + restocked, both >= 0, reserved = sum of held",
          "SELECT count(*) FROM product",
          """
          SELECT p.client_id || '/' || p.sku FROM product p
          LEFT JOIN (SELECT client_id, sku, sum(quantity) AS held FROM reservation
                     WHERE state = 'held' GROUP BY client_id, sku) r
                 ON r.client_id = p.client_id AND r.sku = p.sku
          WHERE p.available < 0 OR p.reserved < 0
             OR p.available + p.reserved <> p.initial_stock + p.restocked
             OR p.reserved <> COALESCE(r.held, 0)
          """,
          false);

  /**
   * 7a. No order is both paid and rejected: a reserved or paid order holds every line, a rejected
   * one holds nothing and has no payment, and an order's reservations are all or nothing (one per
   * line, all in one state): otherwise the shop took money for goods it could not reserve.
   */
  static final Invariant ORDER_STATUS =
      new Invariant(
          "order-status",
          "reserved/paid orders hold every line; rejected hold none and have no payment",
          "SELECT count(*) FROM orders",
          """
          SELECT o.id FROM orders o
          WHERE (o.status IN ('reserved', 'paid') AND EXISTS (
                     SELECT 1 FROM order_item i
                     LEFT JOIN reservation r ON r.order_id = i.order_id AND r.sku = i.sku
                     WHERE i.order_id = o.id AND r.state IS DISTINCT FROM 'held'))
             OR (o.status = 'rejected' AND (o.payment_id IS NOT NULL OR EXISTS (
                     SELECT 1 FROM reservation r
                     WHERE r.order_id = o.id AND r.state <> 'rejected')))
             OR EXISTS (
                     SELECT 1 FROM reservation r WHERE r.order_id = o.id
                     GROUP BY r.order_id
                     HAVING count(DISTINCT r.state) <> 1
                         OR count(DISTINCT r.sku) <> (SELECT count(*) FROM order_item i
                                                      WHERE i.order_id = o.id))
          """,
          false);

  /**
   * 7b. Each reservation is one line of its order (same client, sku and quantity), at most one row
   * per (order, sku), released or void only for a cancelled order, and held only for an order that
   * is live or cancelled with its release still to come: so units are released at most once, and
   * never for an order that still needs them.
   */
  static final Invariant RESERVATION_STATES =
      new Invariant(
          "reservation-states",
          "one row per order line; released/void only if cancelled; held only if live",
          "SELECT count(*) FROM reservation",
          """
          SELECT DISTINCT r.order_id || '/' || r.sku FROM reservation r
          JOIN orders o ON o.id = r.order_id
          LEFT JOIN order_item i ON i.order_id = r.order_id AND i.sku = r.sku
          WHERE i.sku IS NULL OR i.quantity <> r.quantity OR o.client_id <> r.client_id
             OR (SELECT count(*) FROM reservation d
                 WHERE d.order_id = r.order_id AND d.sku = r.sku) > 1
             OR (r.state IN ('released', 'void') AND o.status <> 'cancelled')
             OR (r.state = 'held'
                 AND (o.status NOT IN ('placed', 'reserved', 'paid', 'cancelled')
                      OR (o.status = 'cancelled' AND EXISTS (
                              SELECT 1 FROM once.outbox e
                              JOIN once.inbox c ON c.message_id = e.message_id
                                               AND c.consumer = 'release-stock'
                              WHERE e.type = 'order.cancelled' AND e.aggregate_id = o.id))))
          """,
          false);

  /**
   * 8a. Every paid order's payment succeeded, from the order's account, for the order's total: an
   * order shipped as paid without the money is the one loss a shop cannot recover.
   */
  static final Invariant PAID_ORDERS =
      new Invariant(
          "paid-orders",
          "each paid order has a succeeded payment of its total from its account",
          "SELECT count(*) FROM orders WHERE status = 'paid'",
          """
          SELECT o.id FROM orders o
          LEFT JOIN payment p ON p.id = o.payment_id
          WHERE o.status = 'paid'
            AND (p.id IS NULL OR p.status <> 'succeeded'
                 OR p.amount <> o.total OR p.account_id <> o.account_id)
          """,
          false);

  /**
   * 8b. Every payment has exactly one charge journal row, of its amount from its account, reversed
   * exactly when the payment failed, and every charge row belongs to a payment: a succeeded payment
   * whose charge is missing or given back is money never taken, a charge without payment is money
   * taken for nothing.
   */
  static final Invariant PAYMENT_CHARGES =
      new Invariant(
          "payment-charges",
          "each payment has one charge of its amount, reversed iff failed; no orphan charge",
          """
          SELECT (SELECT count(*) FROM payment)
               + (SELECT count(*) FROM operation c WHERE c.kind = 'charge' AND NOT EXISTS (
                      SELECT 1 FROM payment p WHERE p.charge_operation_id = c.id))
          """,
          """
          SELECT p.id FROM payment p
          LEFT JOIN operation c ON c.id = p.charge_operation_id
          WHERE c.id IS NULL
             OR c.kind <> 'charge'
             OR c.account_id <> p.account_id
             OR c.amount <> -p.amount
             OR (p.status = 'failed') <> EXISTS (
                    SELECT 1 FROM operation r WHERE r.kind = 'reversal' AND r.reverses = c.id)
             OR (SELECT count(*) FROM payment q WHERE q.charge_operation_id = c.id) > 1
          UNION ALL
          SELECT c.id FROM operation c
          WHERE c.kind = 'charge'
            AND NOT EXISTS (SELECT 1 FROM payment p WHERE p.charge_operation_id = c.id)
          """,
          false);

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
