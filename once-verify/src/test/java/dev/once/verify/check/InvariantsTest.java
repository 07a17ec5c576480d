package dev.once.verify.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.report.Verdict;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each invariant against the shop's real schema: the consistent seed passes them all, and each
 * corruption, written the way a bug (or a fault) would leave it, fails exactly its invariant and
 * names the row. Where the schema itself forbids a corruption (the ledger's append-only triggers,
 * the unique index on reversals, the reservation's primary key), the test lifts that guard first as
 * the superuser: the checker must catch what slips past the guards too.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // an embedded PostgreSQL starts
class InvariantsTest {
  private static ShopSchemaDatabase db;

  @BeforeAll
  static void start() throws Exception {
    db = ShopSchemaDatabase.shared();
  }

  @Test
  void theConsistentShopPassesEveryInvariant() throws Exception {
    List<Verdict> verdicts = evaluate(false);
    assertThat(verdicts.stream().map(Verdict::id).toList()).isEqualTo(new Invariants(false).ids());
    for (Verdict v : verdicts) {
      assertThat(v.status()).as(v.toString()).isEqualTo(Verdict.Status.PASS);
      assertThat(v.violations()).as(v.id()).isEqualTo(0);
      assertThat(v.examples()).as(v.id()).isEmpty();
    }
    Map<String, Long> checked =
        verdicts.stream().collect(Collectors.toMap(Verdict::id, Verdict::checked));
    assertThat(checked.get("account-balance")).isEqualTo(2);
    assertThat(checked.get("journal-running-balance")).isEqualTo(15);
    assertThat(checked.get("reversals")).isEqualTo(2);
    assertThat(checked.get("refunds-within-payment")).isEqualTo(7);
    assertThat(checked.get("outbox-drained")).isEqualTo(3);
    assertThat(checked.get("keys-settled")).isEqualTo(1);
    assertThat(checked.get("stock")).isEqualTo(2);
    assertThat(checked.get("order-status")).isEqualTo(7);
    assertThat(checked.get("reservation-states")).isEqualTo(7);
    assertThat(checked.get("paid-orders")).isEqualTo(1);
    assertThat(checked.get("payment-charges")).isEqualTo(7);
  }

  @Test
  void aBalanceMovedWithoutItsJournalFailsAccountBalance() throws Exception {
    assertOnlyFails(
        "account-balance",
        List.of("acc-1"),
        "UPDATE account SET balance = balance + 1 WHERE id = 'acc-1'");
  }

  @Test
  void aWrongBalanceAfterFailsTheRunningBalance() throws Exception {
    assertOnlyFails(
        "journal-running-balance",
        List.of("ch-pending"),
        "ALTER TABLE operation DISABLE TRIGGER ALL",
        "UPDATE operation SET balance_after = balance_after + 1 WHERE id = 'ch-pending'");
  }

  @Test
  void aSecondReversalOfTheSameChargeFailsReversals() throws Exception {
    assertOnlyFails(
        "reversals",
        List.of("rv-failed", "rv-failed-2"),
        "DROP INDEX operation_one_reversal_idx",
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rv-failed-2', 'acc-1', 'reversal', 50, 'ch-failed', now())");
  }

  @Test
  void aReversalOfADepositFailsReversals() throws Exception {
    assertOnlyFails(
        "reversals",
        List.of("rv-dep"),
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rv-dep', 'acc-1', 'reversal', -5, 'dep-3', now())");
  }

  @Test
  void refundsBeyondThePaymentFailRefunds() throws Exception {
    assertOnlyFails(
        "refunds-within-payment",
        List.of("pay-refunded"),
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rf-extra', 'acc-1', 'refund', 150, 'ch-ref', now())",
        "INSERT INTO refund (id, payment_id, amount, status, operation_id, created_at)"
            + " VALUES ('ref-extra', 'pay-refunded', 150, 'succeeded', 'rf-extra', now())");
  }

  @Test
  void aFailedRefundCreditedAtRequestAndNotTakenBackFailsRefunds() throws Exception {
    assertOnlyFails(
        "refunds-within-payment",
        List.of("pay-refunded"),
        "UPDATE refund SET status = 'failed', credited_at_request = true WHERE id = 'ref-1'",
        "UPDATE payment SET refunded = 20 WHERE id = 'pay-refunded'");
  }

  @Test
  void aPendingRefundAlreadyCreditedFailsRefunds() throws Exception {
    assertOnlyFails(
        "refunds-within-payment",
        List.of("pay-refunded"),
        "ALTER TABLE refund DROP CONSTRAINT refund_credited_iff_confirmed",
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rf-early', 'acc-1', 'refund', 20, 'ch-ref', now())",
        "UPDATE refund SET operation_id = 'rf-early' WHERE id = 'ref-2'");
  }

  @Test
  void aConfirmedRefundWithoutItsCreditFailsRefunds() throws Exception {
    assertOnlyFails(
        "refunds-within-payment",
        List.of("pay-refunded"),
        "ALTER TABLE refund DROP CONSTRAINT refund_credited_iff_confirmed",
        "UPDATE refund SET status = 'succeeded' WHERE id = 'ref-2'");
  }

  @Test
  void aRefundCreditOfNoRefundFailsRefunds() throws Exception {
    assertOnlyFails(
        "refunds-within-payment",
        List.of("rf-stray"),
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rf-stray', 'acc-1', 'refund', 5, 'ch-ref', now())");
  }

  @Test
  void aPendingOutboxRowFailsOutboxDrained() throws Exception {
    String url = db.newDatabase();
    long id = insertOutbox(url, "pending");
    assertOnlyFails(url, false, "outbox-drained", List.of(Long.toString(id)));
  }

  @Test
  void aDeadOutboxRowFailsUnlessAllowed() throws Exception {
    String url = db.newDatabase();
    long id = insertOutbox(url, "dead");
    assertOnlyFails(url, false, "outbox-no-dead", List.of(Long.toString(id)));

    List<Verdict> allowed;
    try (Connection c = ShopSchemaDatabase.connectUrl(url)) {
      allowed = new Invariants(true).evaluate(c);
    }
    Verdict dead = byId(allowed).get("outbox-no-dead");
    assertThat(dead.status()).isEqualTo(Verdict.Status.WARN);
    assertThat(dead.violations()).isEqualTo(1);
    assertThat(dead.examples()).isEqualTo(List.of(Long.toString(id)));
    assertThat(CheckReport.passed(allowed)).isTrue();
  }

  @Test
  void aKeyLeftInProgressFailsKeysSettled() throws Exception {
    assertOnlyFails(
        "keys-settled",
        List.of("c1/key-stuck"),
        "ALTER TABLE once.idempotency_key DISABLE TRIGGER idempotency_key_completed_at_commit",
        "INSERT INTO once.idempotency_key (client_id, idem_key, fingerprint, state, created_at)"
            + " VALUES ('c1', 'key-stuck', decode(repeat('cd', 32), 'hex'), 'in_progress', now())");
  }

  @Test
  void reservedUnitsNoReservationHoldsFailStock() throws Exception {
    assertOnlyFails(
        "stock",
        List.of("c1/widget"),
        "UPDATE product SET available = available - 1, reserved = reserved + 1"
            + " WHERE client_id = 'c1' AND sku = 'widget'");
  }

  @Test
  void anOrderPaidAndRejectedFailsOrderStatus() throws Exception {
    assertOnlyFails(
        "order-status",
        List.of("ord-rejected"),
        "UPDATE orders SET status = 'paid', payment_id = 'pay-spare' WHERE id = 'ord-rejected'");
  }

  @Test
  void aReleasedReservationOfALiveOrderFailsReservationStates() throws Exception {
    assertOnlyFails(
        "reservation-states",
        List.of("ord-placed/widget"),
        "INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at,"
            + " updated_at) VALUES ('ord-placed', 'c1', 'widget', 1, 'released', now(), now())");
  }

  @Test
  void aReservationReleasedTwiceFailsReservationStates() throws Exception {
    assertOnlyFails(
        "reservation-states",
        List.of("ord-cancelled/widget"),
        "ALTER TABLE reservation DROP CONSTRAINT reservation_pk",
        "INSERT INTO reservation (order_id, client_id, sku, quantity, state, created_at,"
            + " updated_at) VALUES ('ord-cancelled', 'c1', 'widget', 4, 'released', now(), now())");
  }

  @Test
  void aPaidOrderWhosePaymentDidNotSucceedFailsPaidOrders() throws Exception {
    assertOnlyFails(
        "paid-orders",
        List.of("ord-paid"),
        "UPDATE payment SET status = 'pending' WHERE id = 'pay-order'");
  }

  @Test
  void aSucceededPaymentWhoseChargeWasGivenBackFailsPaymentCharges() throws Exception {
    assertOnlyFails(
        "payment-charges",
        List.of("pay-ok"),
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('rv-ok', 'acc-1', 'reversal', 100, 'ch-ok', now())");
  }

  @Test
  void aChargeWithoutPaymentFailsPaymentCharges() throws Exception {
    assertOnlyFails(
        "payment-charges",
        List.of("ch-orphan"),
        "INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)"
            + " VALUES ('ch-orphan', 'acc-1', 'charge', -10, NULL, now())");
  }

  @Test
  void theApplicationRoleMayRunEveryCheck() throws Exception {
    try (Connection c = ShopSchemaDatabase.connectAsApplication(db.newDatabase())) {
      List<Verdict> verdicts = new Invariants(false).evaluate(c);
      assertThat(verdicts.size()).isEqualTo(12);
      assertThat(CheckReport.passed(verdicts)).as(verdicts.toString()).isTrue();
    }
  }

  @Test
  void evaluatingRestoresTheConnection() throws Exception {
    String url = db.newDatabase();
    try (Connection c = ShopSchemaDatabase.connectUrl(url)) {
      new Invariants(false).evaluate(c);
      assertThat(c.getAutoCommit()).isTrue();
      assertThat(c.isReadOnly()).isFalse();
      assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    }
  }

  /** Applies the corruption to a fresh copy of the seed, then expects only {@code id} to fail. */
  private static void assertOnlyFails(String id, List<String> examples, String... corruption)
      throws Exception {
    String url = db.newDatabase();
    try (Connection c = ShopSchemaDatabase.connectUrl(url);
        Statement s = c.createStatement()) {
      for (String sql : corruption) {
        s.execute(sql);
      }
    }
    assertOnlyFails(url, false, id, examples);
  }

  private static void assertOnlyFails(
      String url, boolean allowDead, String id, List<String> examples) throws Exception {
    List<Verdict> verdicts;
    try (Connection c = ShopSchemaDatabase.connectUrl(url)) {
      verdicts = new Invariants(allowDead).evaluate(c);
    }
    for (Verdict v : verdicts) {
      if (v.id().equals(id)) {
        assertThat(v.status()).as(v.toString()).isEqualTo(Verdict.Status.FAIL);
        assertThat(v.violations()).as(v.toString()).isEqualTo(examples.size());
        assertThat(v.examples()).as(v.toString()).isEqualTo(examples);
      } else {
        assertThat(v.status()).as(v.toString()).isEqualTo(Verdict.Status.PASS);
      }
    }
    assertThat(CheckReport.passed(verdicts)).isFalse();
  }

  private static long insertOutbox(String url, String state) throws Exception {
    try (Connection c = ShopSchemaDatabase.connectUrl(url);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "INSERT INTO once.outbox (message_id, type, aggregate_id, payload, state,"
                    + " attempts, next_attempt_at, created_at) VALUES (gen_random_uuid(),"
                    + " 'payment.requested', 'pay-pending', '{}', '"
                    + state
                    + "', 3, now(), now()) RETURNING id")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<Verdict> evaluate(boolean allowDead) throws Exception {
    try (Connection c = ShopSchemaDatabase.connectUrl(db.newDatabase())) {
      return new Invariants(allowDead).evaluate(c);
    }
  }

  private static Map<String, Verdict> byId(List<Verdict> verdicts) {
    return verdicts.stream().collect(Collectors.toMap(Verdict::id, v -> v));
  }
}
