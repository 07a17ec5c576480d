package dev.once.shop.payments;

import static dev.once.shop.persistence.Timestamps.utc;

import dev.once.shop.accounts.Money;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL of the payment aggregate (payments and refunds). Each statement that moves money does all of
 * it at once — row lock, condition, journal row, payment or refund row — so there is no window
 * between a check and a write. The balance moves with the journal row through the database's guard
 * trigger ({@code V3__ledger_guard.sql}), which locks the account and inserts nothing if the
 * balance would go below zero. Lock order is payment, then account, and refund, then payment or
 * account, so refunds and reversals cannot deadlock with each other or with charges (which lock
 * only the account). A refund moves money only when the provider confirms it: the request reserves
 * its amount on the payment, the confirmation credits the account.
 */
@Repository
class PaymentRepository {
  static final String PAYMENT_COLUMNS =
      "id, account_id, amount, currency, description, status, refunded, charge_operation_id,"
          + " order_id";

  /**
   * Charge and payment in one statement. The debit happens only if the account is the client's, is
   * in the payment's currency and holds enough (the guard trigger re-checks the balance under the
   * account's row lock): zero rows otherwise, nothing written.
   */
  static final String CHARGE =
      """
      WITH charge AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, id, 'charge', -:amount, NULL, :now
          FROM account
          WHERE id = :account AND client_id = :client AND currency = :currency
          RETURNING id, account_id
      )
      INSERT INTO payment (id, client_id, account_id, amount, currency, description, status,
                           charge_operation_id, order_id, created_at, updated_at)
      SELECT :paymentId, :client, charge.account_id, :amount, :currency, :description, 'pending',
             charge.id, :orderId, :now, :now
      FROM charge
      RETURNING %s
      """
          .formatted(PAYMENT_COLUMNS);

  static final String FIND =
      """
      SELECT %s FROM payment WHERE id = :id AND client_id = :client
      """
          .formatted(PAYMENT_COLUMNS);

  /**
   * A refund's reservation in one statement; no money moves. The conditional UPDATE of the payment
   * takes its row lock and re-checks {@code refunded + amount <= amount} on the latest row version,
   * so concurrent refunds serialize and their sum never exceeds the payment. It also refuses an
   * amount with more fraction digits ({@code :digits}) than the payment's currency, and, unless
   * {@code :throughOrder}, a payment whose order is not cancelled (an order's payment is refunded
   * through the order). The refund is written pending, without a journal row ({@code operation_id}
   * is null until the provider confirms it).
   */
  static final String REFUND =
      """
      WITH reserved AS (
          UPDATE payment SET refunded = refunded + :amount, updated_at = :now
          WHERE id = :payment AND client_id = :client AND status = 'succeeded'
            AND refunded + :amount <= amount
            AND :digits <= %s
            AND (:throughOrder OR NOT EXISTS (
                     SELECT 1 FROM orders o
                     WHERE o.payment_id = payment.id AND o.status <> 'cancelled'))
          RETURNING id, currency
      ), accepted AS (
          INSERT INTO refund (id, payment_id, amount, status, created_at)
          SELECT :refundId, reserved.id, :amount, 'pending', :now
          FROM reserved
          RETURNING id, payment_id, amount, status, operation_id
      )
      SELECT accepted.*, reserved.currency FROM accepted CROSS JOIN reserved
      """
          .formatted(Money.minorUnitsSql("currency"));

  /** The status of the order a payment belongs to, if any: the failure path of refunds. */
  static final String ORDER_STATUS =
      """
      SELECT status FROM orders WHERE payment_id = :payment
      """;

  /**
   * Locks payments, in id order (the locking happens above the sort), before a batch of settlements
   * changes them: as an UPDATE would, so an order's payment link (a key share) is not blocked.
   */
  static final String LOCK_ALL =
      """
      SELECT id, account_id FROM payment WHERE id IN (:ids) ORDER BY id FOR NO KEY UPDATE
      """;

  /** Provider success: compare-and-set from pending. */
  static final String MARK_SUCCEEDED =
      """
      UPDATE payment SET status = 'succeeded', updated_at = :now
      WHERE id = :id AND status = 'pending'
      RETURNING %s
      """
          .formatted(PAYMENT_COLUMNS);

  /**
   * Provider decline: compare-and-set from pending, and the whole charge given back by a reversal
   * row, in one statement (the unique index on reversals backs up "at most once").
   */
  static final String MARK_FAILED =
      """
      WITH failed AS (
          UPDATE payment SET status = 'failed', updated_at = :now
          WHERE id = :id AND status = 'pending'
          RETURNING %s
      ), journal AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, failed.account_id, 'reversal', failed.amount,
                 failed.charge_operation_id, :now
          FROM failed
          RETURNING id
      )
      SELECT failed.* FROM failed CROSS JOIN journal
      """
          .formatted(PAYMENT_COLUMNS);

  static final String REFUND_COLUMNS = "id, payment_id, amount, status, operation_id";

  /**
   * The provider confirmed the refund, in one statement: compare-and-set from pending under the
   * refund's row lock, and the account credited by a {@code refund} journal row that references the
   * payment's charge (the guard trigger locks the account; a credit is never refused). A refund
   * written before V6 ({@code credited_at_request}) already holds its credit and gets none. A
   * concurrent settlement of the same refund waits for the lock, then finds it no longer pending
   * and writes nothing.
   */
  static final String MARK_REFUND_SUCCEEDED =
      """
      WITH pending AS (
          SELECT r.id, r.amount, r.operation_id, r.credited_at_request, p.account_id,
                 p.charge_operation_id
          FROM refund r JOIN payment p ON p.id = r.payment_id
          WHERE r.id = :id AND r.status = 'pending'
          FOR UPDATE OF r
      ), credit AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, pending.account_id, 'refund', pending.amount,
                 pending.charge_operation_id, :now
          FROM pending
          WHERE NOT pending.credited_at_request
          RETURNING id
      ), confirmed AS (
          UPDATE refund
          SET status = 'succeeded',
              operation_id = COALESCE(pending.operation_id, (SELECT id FROM credit)),
              updated_at = :now
          FROM pending
          WHERE refund.id = pending.id
          RETURNING refund.id, refund.payment_id, refund.amount, refund.status,
                    refund.operation_id
      )
      SELECT %s FROM confirmed
      """
          .formatted(REFUND_COLUMNS);

  /**
   * The provider refused the refund, in one statement: compare-and-set from pending, and the
   * reservation released from the payment ({@code refunded}), which may then be refunded again. No
   * money moves. Lock order refund, then payment. Only a refund written before V6 ({@code
   * credited_at_request}), which credited the account at request time, also has its credit taken
   * back by a negative reversal row (the journal insert locks the account); if the account no
   * longer holds it, the guard inserts nothing and the row comes back with {@code settled = false}:
   * the caller must roll back.
   */
  static final String MARK_REFUND_FAILED =
      """
      WITH failed AS (
          UPDATE refund SET status = 'failed', updated_at = :now
          WHERE id = :id AND status = 'pending'
          RETURNING %s, credited_at_request
      ), released AS (
          UPDATE payment SET refunded = payment.refunded - failed.amount, updated_at = :now
          FROM failed
          WHERE payment.id = failed.payment_id
          RETURNING payment.account_id
      ), legacy_reversal AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, released.account_id, 'reversal', -failed.amount,
                 failed.operation_id, :now
          FROM failed CROSS JOIN released
          WHERE failed.credited_at_request
          RETURNING id
      )
      SELECT failed.*,
             NOT failed.credited_at_request OR EXISTS (SELECT 1 FROM legacy_reversal) AS settled
      FROM failed
      """
          .formatted(REFUND_COLUMNS);

  static final String REFUNDS =
      """
      SELECT %s FROM refund WHERE payment_id = :payment ORDER BY created_at, id
      """
          .formatted(REFUND_COLUMNS);

  static final String REFUND_STATE =
      """
      SELECT %s FROM refund WHERE id = :id
      """
          .formatted(REFUND_COLUMNS);

  /** The current state of a payment, for the failure paths of refunds and transitions. */
  static final String STATE =
      """
      SELECT %s FROM payment WHERE id = :id
      """
          .formatted(PAYMENT_COLUMNS);

  private final JdbcClient jdbc;

  PaymentRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The new payment, or empty if the account is missing, foreign, in another currency or short. */
  Optional<Payment> charge(
      String client,
      String account,
      BigDecimal amount,
      String currency,
      Optional<String> description,
      Optional<String> orderId,
      String paymentId,
      String operationId,
      Instant now) {
    return jdbc.sql(CHARGE)
        .param("client", client)
        .param("account", account)
        .param("amount", amount)
        .param("currency", currency)
        .param("description", description.orElse(null), Types.VARCHAR)
        .param("orderId", orderId.orElse(null), Types.VARCHAR)
        .param("paymentId", paymentId)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query(PaymentRepository::payment)
        .optional();
  }

  Optional<Payment> find(String client, String id) {
    return jdbc.sql(FIND)
        .param("client", client)
        .param("id", id)
        .query(PaymentRepository::payment)
        .optional();
  }

  /**
   * The accepted (pending) refund and the payment's currency, or empty if the payment refused it.
   *
   * @param throughOrder whether an order refunds its own payment (its cancellation: what is left of
   *     the payment, not checked against the minor units again); otherwise a payment that belongs
   *     to an order that is not cancelled is refused
   */
  Optional<AcceptedRefund> refund(
      String client,
      String payment,
      BigDecimal amount,
      boolean throughOrder,
      String refundId,
      Instant now) {
    return jdbc.sql(REFUND)
        .param("client", client)
        .param("payment", payment)
        .param("amount", amount)
        // The amount an order refunds is what is left of its payment, accepted when it was made.
        .param("digits", throughOrder ? 0 : Money.fractionDigits(amount))
        .param("throughOrder", throughOrder)
        .param("refundId", refundId)
        .param("now", utc(now))
        .query((rs, row) -> new AcceptedRefund(refund(rs, row), rs.getString("currency")))
        .optional();
  }

  /** Locks the payments among {@code ids} in id order; their accounts, by payment id. */
  Map<String, String> lockAll(Collection<String> ids) {
    if (ids.isEmpty()) {
      return Map.of();
    }
    Map<String, String> accounts = new HashMap<>();
    jdbc.sql(LOCK_ALL)
        .param("ids", ids)
        .query(
            (RowCallbackHandler)
                rs -> accounts.put(rs.getString("id"), rs.getString("account_id")));
    return accounts;
  }

  Optional<Payment> markSucceeded(String id, Instant now) {
    return jdbc.sql(MARK_SUCCEEDED)
        .param("id", id)
        .param("now", utc(now))
        .query(PaymentRepository::payment)
        .optional();
  }

  Optional<Payment> markFailed(String id, String operationId, Instant now) {
    return jdbc.sql(MARK_FAILED)
        .param("id", id)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query(PaymentRepository::payment)
        .optional();
  }

  /** Any client's payment: for the provider side, which is not scoped by client. */
  Optional<Payment> state(String id) {
    return jdbc.sql(STATE).param("id", id).query(PaymentRepository::payment).optional();
  }

  /** The status of the order that {@code payment} belongs to, or empty if it has none. */
  Optional<String> orderStatus(String payment) {
    return jdbc.sql(ORDER_STATUS).param("payment", payment).query(String.class).optional();
  }

  /** The refund moved to succeeded with its credit, or empty if it was not pending. */
  Optional<Refund> markRefundSucceeded(String id, String operationId, Instant now) {
    return jdbc.sql(MARK_REFUND_SUCCEEDED)
        .param("id", id)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query(PaymentRepository::refund)
        .optional();
  }

  /**
   * The refund moved to failed, or empty if it was not pending.
   *
   * @throws RefundReversalException if a refund credited before V6 cannot be taken back, as the
   *     account no longer holds it; the caller's transaction must roll back (it does, being a
   *     runtime exception in a transactional method)
   */
  Optional<Refund> markRefundFailed(String id, String operationId, Instant now) {
    return jdbc.sql(MARK_REFUND_FAILED)
        .param("id", id)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query(
            (rs, row) -> {
              if (!rs.getBoolean("settled")) {
                throw new RefundReversalException(id);
              }
              return refund(rs, row);
            })
        .optional();
  }

  List<Refund> refunds(String paymentId) {
    return jdbc.sql(REFUNDS).param("payment", paymentId).query(PaymentRepository::refund).list();
  }

  Optional<Refund> refundState(String id) {
    return jdbc.sql(REFUND_STATE).param("id", id).query(PaymentRepository::refund).optional();
  }

  static Refund refund(ResultSet rs, int row) throws SQLException {
    return new Refund(
        rs.getString("id"),
        rs.getString("payment_id"),
        rs.getBigDecimal("amount"),
        PaymentStatus.fromWireName(rs.getString("status")),
        Optional.ofNullable(rs.getString("operation_id")));
  }

  static Payment payment(ResultSet rs, int row) throws SQLException {
    return new Payment(
        rs.getString("id"),
        rs.getString("account_id"),
        rs.getBigDecimal("amount"),
        rs.getString("currency"),
        Optional.ofNullable(rs.getString("description")),
        PaymentStatus.fromWireName(rs.getString("status")),
        rs.getBigDecimal("refunded"),
        rs.getString("charge_operation_id"),
        Optional.ofNullable(rs.getString("order_id")));
  }

  /** A refund as written, with the payment's currency for the provider message. */
  record AcceptedRefund(Refund refund, String currency) {}
}
