package dev.once.verify.relay;

import dev.once.verify.harness.Sql;
import java.sql.SQLException;
import java.util.List;

/**
 * Pre-filled payments and their {@code provider.charge} rows, written straight into the shop's
 * database as its owner, not yet due; and the statements that release them and follow their
 * delivery. Delivered rows are counted through the shop's own state (payments that left {@code
 * pending}, rows no longer {@code pending}), never through delivered outbox rows, which a relay may
 * delete.
 */
final class Prefill {
  private Prefill() {}

  /** Releases the pre-filled rows of a tag at once: how many, and the database's now() (epoch). */
  static final String RELEASE =
      """
      WITH r AS (
          UPDATE once.outbox SET next_attempt_at = now(), created_at = now()
          WHERE next_attempt_at = 'infinity' AND payload ->> 'paymentId' LIKE ?
          RETURNING 1)
      SELECT count(*), extract(epoch FROM now())::float8 FROM r
      """;

  /** Payments of a tag still pending: a range of the primary key (collation C). */
  static final String PENDING_PAYMENTS =
      "SELECT count(*) FROM payment WHERE id LIKE ? AND status = 'pending'";

  /** Outbox rows of a tag (its charges and their events) still pending: partial indexes. */
  static final String PENDING_ROWS =
      "SELECT count(*) FROM once.outbox WHERE state = 'pending' AND aggregate_id LIKE ?";

  /** Settled payments of a tag, and seconds from the release to the last settlement. */
  static final String SETTLED =
      "SELECT count(*), extract(epoch FROM max(updated_at))::float8 - ? FROM payment"
          + " WHERE id LIKE ? AND status <> 'pending'";

  static final String SETTLED_PERCENTILES =
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s), percentile_cont(0.99) WITHIN GROUP"
          + " (ORDER BY s) FROM (SELECT extract(epoch FROM updated_at)::float8 - ? AS s"
          + " FROM payment WHERE id LIKE ? AND status <> 'pending') x";

  private static final String INSERT =
      """
      WITH ops AS (
          INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
          SELECT 'op_' || ? || '.' || g, (?::text[])[1 + g % ?], 'charge', -1, NULL, now()
          FROM generate_series(?, ?) g
          RETURNING id, account_id
      ), pays AS (
          INSERT INTO payment (id, client_id, account_id, amount, currency, description,
                               status, charge_operation_id, created_at, updated_at)
          SELECT 'pay_' || substr(ops.id, 4), a.client_id, ops.account_id, 1, 'EUR',
                 NULL, 'pending', ops.id, now(), now()
          FROM ops JOIN account a ON a.id = ops.account_id
          RETURNING id, account_id, charge_operation_id
      )
      INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                               created_at)
      SELECT gen_random_uuid(), 'provider.charge', coalesce(?::text, id),
             jsonb_build_object('paymentId', id, 'accountId', account_id,
                                'amount', '1.0000', 'currency', 'EUR',
                                'chargeOperationId', charge_operation_id),
             'infinity', now()
      FROM pays
      ORDER BY substr(id, ?)::int
      """;

  /** The {@code LIKE} pattern of a tag's payments ({@code pay_<tag>.<n>}). */
  static String like(String tag) {
    return "pay\\_" + tag + ".%";
  }

  /**
   * {@code rows} pending payments of tag {@code tag} (ids {@code pay_<tag>.<n>}, a dot no random id
   * has) over the accounts, with their charge operations and {@code provider.charge} rows as {@code
   * PaymentService.create} writes them, but not yet due ({@code infinity}). Aggregate: each
   * payment's id, as the shop's, or {@code aggregate} for all of them (the hot aggregate).
   */
  static void prefill(Sql sql, List<String> accounts, String tag, int rows, String aggregate)
      throws SQLException {
    // In batches: the ledger guard's trigger updates the charged account's row for each charge,
    // and thousands of updates of 64 rows in one transaction make ever longer version chains.
    int batch = 2_500;
    for (int from = 1; from <= rows; from += batch) {
      sql.update(
          INSERT,
          tag,
          accounts.toArray(String[]::new),
          accounts.size(),
          from,
          Math.min(rows, from + batch - 1),
          aggregate,
          ("pay_" + tag + ".").length() + 1);
    }
  }
}
