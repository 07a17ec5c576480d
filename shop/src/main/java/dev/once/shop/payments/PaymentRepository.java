package dev.once.shop.payments;

import static dev.once.shop.persistence.Timestamps.utc;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL of the payment aggregate (payments and refunds). Each statement that moves money does all of
 * it at once — row lock, condition, journal row, payment or refund row — so there is no window
 * between a check and a write. The balance moves with the journal row through the database's guard
 * trigger ({@code V3__ledger_guard.sql}), which locks the account and inserts nothing if the
 * balance would go below zero. Lock order is always payment, then account, so refunds and reversals
 * cannot deadlock with each other or with charges (which lock only the account).
 */
@Repository
class PaymentRepository {
  static final String PAYMENT_COLUMNS =
      "id, account_id, amount, currency, description, status, refunded, charge_operation_id";

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
                           charge_operation_id, created_at, updated_at)
      SELECT :paymentId, :client, charge.account_id, :amount, :currency, :description, 'pending',
             charge.id, :now, :now
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
   * Refund in one statement. The conditional UPDATE of the payment takes its row lock and re-checks
   * {@code refunded + amount <= amount} on the latest row version, so concurrent refunds serialize
   * and their sum never exceeds the payment. The journal row (which credits the account through the
   * guard trigger) references the charge it partly reverses.
   */
  static final String REFUND =
      """
      WITH paid AS (
          UPDATE payment SET refunded = refunded + :amount, updated_at = :now
          WHERE id = :payment AND client_id = :client AND status = 'succeeded'
            AND refunded + :amount <= amount
          RETURNING id, account_id, currency, charge_operation_id
      ), journal AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, paid.account_id, 'refund', :amount, paid.charge_operation_id, :now
          FROM paid
          RETURNING id
      ), accepted AS (
          INSERT INTO refund (id, payment_id, amount, status, operation_id, created_at)
          SELECT :refundId, paid.id, :amount, 'pending', journal.id, :now
          FROM journal CROSS JOIN paid
          RETURNING id, payment_id, amount, status, operation_id
      )
      SELECT accepted.*, paid.currency FROM accepted CROSS JOIN paid
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

  /** Provider accepted the refund: compare-and-set from pending. */
  static final String MARK_REFUND_SUCCEEDED =
      """
      UPDATE refund SET status = 'succeeded', updated_at = :now
      WHERE id = :id AND status = 'pending'
      RETURNING %s
      """
          .formatted(REFUND_COLUMNS);

  /**
   * Provider refused the refund, in one statement: compare-and-set from pending, the refunded sum
   * of the payment given back, and the credit taken back from the account by a negative reversal
   * row that references the refund's credit. Lock order refund, payment, account (the journal
   * insert locks the account through the guard trigger), the same payment-before-account order as
   * everywhere. If the account no longer holds the credit, the guard inserts no journal row: the
   * refund row comes back with {@code reversed = false}, and the caller must roll back, as the
   * other two updates did happen.
   */
  static final String MARK_REFUND_FAILED =
      """
      WITH failed AS (
          UPDATE refund SET status = 'failed', updated_at = :now
          WHERE id = :id AND status = 'pending'
          RETURNING %s
      ), unrefunded AS (
          UPDATE payment SET refunded = payment.refunded - failed.amount, updated_at = :now
          FROM failed
          WHERE payment.id = failed.payment_id
          RETURNING payment.account_id
      ), journal AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT :operationId, unrefunded.account_id, 'reversal', -failed.amount,
                 failed.operation_id, :now
          FROM failed CROSS JOIN unrefunded
          RETURNING id
      )
      SELECT failed.*, EXISTS (SELECT 1 FROM journal) AS reversed FROM failed
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
      String paymentId,
      String operationId,
      Instant now) {
    return jdbc.sql(CHARGE)
        .param("client", client)
        .param("account", account)
        .param("amount", amount)
        .param("currency", currency)
        .param("description", description.orElse(null), Types.VARCHAR)
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

  /** The accepted refund and the payment's currency, or empty if the payment refused it. */
  Optional<AcceptedRefund> refund(
      String client,
      String payment,
      BigDecimal amount,
      String refundId,
      String operationId,
      Instant now) {
    return jdbc.sql(REFUND)
        .param("client", client)
        .param("payment", payment)
        .param("amount", amount)
        .param("refundId", refundId)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query((rs, row) -> new AcceptedRefund(refund(rs, row), rs.getString("currency")))
        .optional();
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

  Optional<Refund> markRefundSucceeded(String id, Instant now) {
    return jdbc.sql(MARK_REFUND_SUCCEEDED)
        .param("id", id)
        .param("now", utc(now))
        .query(PaymentRepository::refund)
        .optional();
  }

  /**
   * The refund moved to failed, or empty if it was not pending.
   *
   * @throws RefundReversalException if the account cannot give the credit back; the caller's
   *     transaction must roll back (it does, being a runtime exception in a transactional method)
   */
  Optional<Refund> markRefundFailed(String id, String operationId, Instant now) {
    return jdbc.sql(MARK_REFUND_FAILED)
        .param("id", id)
        .param("operationId", operationId)
        .param("now", utc(now))
        .query(
            (rs, row) -> {
              if (!rs.getBoolean("reversed")) {
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
        rs.getString("operation_id"));
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
        rs.getString("charge_operation_id"));
  }

  /** A refund as written, with the payment's currency for the provider message. */
  record AcceptedRefund(Refund refund, String currency) {}
}
