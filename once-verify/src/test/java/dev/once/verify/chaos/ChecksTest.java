package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.AccountState;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.JournalRow;
import dev.once.verify.chaos.Observations.OrderAction;
import dev.once.verify.chaos.Observations.OrderIntent;
import dev.once.verify.chaos.Observations.OrderObservations;
import dev.once.verify.chaos.Observations.OrderPayment;
import dev.once.verify.chaos.Observations.OrderState;
import dev.once.verify.chaos.Observations.ProductState;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.ReservationRow;
import dev.once.verify.chaos.Observations.RestockRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import dev.once.verify.report.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each check on hand-made observations: a good run passes, each breakage fails its check. */
class ChecksTest {
  private static final String ACC = "acc_A";

  /**
   * A small, correct run: 2 deposits, 2 payments (one refused), 1 refund, 1 timed out; and orders:
   * ord_1 paid, ord_2 reserved with its payment declined, ord_3 rejected for stock, ord_4
   * cancelled, one timed out and never made, one key-reuse probe refused; a restock acknowledged
   * and one timed out and not applied.
   */
  private static final class Run {
    List<IntentRecord> intents =
        new ArrayList<>(
            List.of(
                new IntentRecord("c0-1", ACC, Kind.DEPOSIT, 1, 201),
                new IntentRecord("c0-2", ACC, Kind.PAYMENT, 1, 201),
                new IntentRecord("c0-3", ACC, Kind.PAYMENT, 2, 422),
                new IntentRecord("c0-4", ACC, Kind.REFUND, 1, 201),
                new IntentRecord("c0-5", ACC, Kind.DEPOSIT, 2, null),
                new IntentRecord("c0-6", ACC, Kind.DEPOSIT, 3, null)));
    List<JournalRow> journal =
        new ArrayList<>(
            List.of(
                new JournalRow("op_1", "deposit", "20.0001"),
                new JournalRow("op_2", "charge", "-1.0001"),
                new JournalRow("op_3", "refund", "0.0001"),
                new JournalRow("op_4", "deposit", "20.0002"),
                new JournalRow("op_5", "charge", "-4.0001"),
                new JournalRow("op_6", "charge", "-9.5100"),
                new JournalRow("op_7", "reversal", "9.5100")));
    String balance = "35.0002";
    List<ReplayRecord> replays = new ArrayList<>(List.of(new ReplayRecord("c0-1", true, "equal")));
    List<ReuseRecord> reuses =
        new ArrayList<>(List.of(new ReuseRecord("c0-2", 422, "idempotency-key-reused")));
    List<String> payments = new ArrayList<>(List.of("pay_1", "pay_o1", "pay_o2"));
    List<String> refunds = new ArrayList<>(List.of("ref_1"));
    Map<String, Long> effects =
        new HashMap<>(Map.of("pay_1", 1L, "ref_1", 1L, "pay_o1", 1L, "pay_o2", 1L));
    long total = 4;
    List<OrderIntent> placed =
        new ArrayList<>(
            List.of(
                new OrderIntent(
                    "c0-7", ACC, 1, Map.of("C0-A", 2L, "C0-TAG", 1L), false, 201, "ord_1"),
                new OrderIntent(
                    "c0-8",
                    ACC,
                    2,
                    Map.of("C0-B", 3L, "C0-TAG", 2L, "C0-DECL", 5098L),
                    true,
                    201,
                    "ord_2"),
                new OrderIntent(
                    "c0-9", ACC, 3, Map.of("C0-B", 2L, "C0-TAG", 3L), false, 201, "ord_3"),
                new OrderIntent(
                    "c0-10", ACC, 4, Map.of("C0-A", 1L, "C0-TAG", 4L), false, 201, "ord_4"),
                new OrderIntent(
                    "c0-11", ACC, 5, Map.of("C0-A", 1L, "C0-TAG", 5L), false, null, null),
                new OrderIntent(
                    "c0-7-reuse", ACC, 6, Map.of("C0-A", 2L, "C0-TAG", 6L), false, 422, null)));
    List<OrderAction> actions =
        new ArrayList<>(
            List.of(
                new OrderAction("c0-12", true, "ord_1", 201, "pay_o1"),
                new OrderAction("c0-13", true, "ord_2", 201, "pay_o2"),
                new OrderAction("c0-14", false, "ord_4", 200, "cancelled"),
                new OrderAction("c0-15", true, "ord_3", 422, null)));
    List<RestockRecord> restocks =
        new ArrayList<>(
            List.of(
                new RestockRecord("c0-16", "C0-A", 2, 200),
                new RestockRecord("c0-17", "C0-A", 3, null)));
    Map<String, Long> initialStock =
        Map.of("C0-A", 6L, "C0-B", 4L, "C0-TAG", 1_000_000_000L, "C0-DECL", 1_000_000_000L);
    List<ProductState> products =
        new ArrayList<>(
            List.of(
                new ProductState("C0-A", 6, 2),
                new ProductState("C0-B", 1, 3),
                new ProductState("C0-TAG", 1_000_000_000L - 3, 3),
                new ProductState("C0-DECL", 1_000_000_000L - 5098, 5098)));
    List<OrderState> orders =
        new ArrayList<>(
            List.of(
                new OrderState(
                    "ord_1",
                    ACC,
                    "paid",
                    Map.of("C0-A", 2L, "C0-TAG", 1L),
                    "4.0001",
                    "pay_o1",
                    null),
                new OrderState(
                    "ord_2",
                    ACC,
                    "reserved",
                    Map.of("C0-B", 3L, "C0-TAG", 2L, "C0-DECL", 5098L),
                    "9.5100",
                    "pay_o2",
                    null),
                new OrderState(
                    "ord_3",
                    ACC,
                    "rejected",
                    Map.of("C0-B", 2L, "C0-TAG", 3L),
                    "6.0003",
                    null,
                    null),
                new OrderState(
                    "ord_4",
                    ACC,
                    "cancelled",
                    Map.of("C0-A", 1L, "C0-TAG", 4L),
                    "2.0004",
                    null,
                    null)));
    List<ReservationRow> reservations =
        new ArrayList<>(
            List.of(
                new ReservationRow("ord_1", "C0-A", 2, "held"),
                new ReservationRow("ord_1", "C0-TAG", 1, "held"),
                new ReservationRow("ord_2", "C0-B", 3, "held"),
                new ReservationRow("ord_2", "C0-TAG", 2, "held"),
                new ReservationRow("ord_2", "C0-DECL", 5098, "held"),
                new ReservationRow("ord_3", "C0-B", 2, "rejected"),
                new ReservationRow("ord_3", "C0-TAG", 3, "rejected"),
                new ReservationRow("ord_4", "C0-A", 1, "released"),
                new ReservationRow("ord_4", "C0-TAG", 4, "released")));
    List<OrderPayment> orderPayments =
        new ArrayList<>(
            List.of(
                new OrderPayment("pay_o1", "ord_1", "succeeded"),
                new OrderPayment("pay_o2", "ord_2", "failed")));
    long pending;
    long backlog;
    long dead;
    long keys = 8;
    long keysInUse;

    Observations observations() {
      return new Observations(
          intents,
          replays,
          reuses,
          List.of(new AccountState(ACC, balance, journal)),
          payments,
          refunds,
          pending,
          backlog,
          dead,
          effects,
          total,
          keys,
          keysInUse,
          new OrderObservations(
              placed,
              actions,
              restocks,
              initialStock,
              products,
              orders,
              reservations,
              orderPayments));
    }

    /** Replaces order {@code id} by a copy with another status, payment and refund. */
    void order(String id, String status, String paymentId, String refundId) {
      for (int i = 0; i < orders.size(); i++) {
        OrderState o = orders.get(i);
        if (o.id().equals(id)) {
          orders.set(
              i,
              new OrderState(id, o.account(), status, o.items(), o.total(), paymentId, refundId));
        }
      }
    }

    void product(String sku, long stock, long reserved) {
      products.replaceAll(p -> p.sku().equals(sku) ? new ProductState(sku, stock, reserved) : p);
    }
  }

  private static Verdict verdict(Check check, Run run) {
    return check.run(run.observations());
  }

  @Test
  void aCorrectRunPassesEveryCheck() {
    for (Check c : Checks.all()) {
      Verdict v = verdict(c, new Run());
      assertThat(v.pass()).as(v.toString()).isTrue();
      assertThat(v.violations()).isEqualTo(0);
    }
    assertThat(verdict(new Checks.AcknowledgedExactlyOnce(), new Run()).checked()).isEqualTo(4);
    assertThat(verdict(new Checks.TimedOutAtMostOnce(), new Run()).checked()).isEqualTo(2);
    assertThat(Checks.all().size()).isEqualTo(18);
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), new Run()).checked()).isEqualTo(10);
    assertThat(verdict(new OrderChecks.AcknowledgedPays(), new Run()).checked()).isEqualTo(2);
    assertThat(verdict(new OrderChecks.AcknowledgedCancels(), new Run()).checked()).isEqualTo(1);
  }

  @Test
  void anAcknowledgedIntentAppliedTwiceOrNeverFails() {
    Run twice = new Run();
    twice.journal.add(new JournalRow("op_9", "charge", "-1.0001"));
    twice.balance = "38.0002";
    Verdict v = verdict(new Checks.AcknowledgedExactlyOnce(), twice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("c0-2 (201, 2 effects)"));

    Run never = new Run();
    never.journal.remove(0);
    assertThat(verdict(new Checks.AcknowledgedExactlyOnce(), never).pass()).isFalse();

    Run refusedButApplied = new Run();
    refusedButApplied.journal.add(new JournalRow("op_9", "charge", "-1.0002"));
    assertThat(verdict(new Checks.AcknowledgedExactlyOnce(), refusedButApplied).examples())
        .isEqualTo(List.of("c0-3 (422, 1 effects)"));
  }

  @Test
  void aTimedOutIntentAppliedTwiceFails() {
    Run run = new Run();
    run.journal.add(new JournalRow("op_9", "deposit", "20.0002"));
    Verdict v = verdict(new Checks.TimedOutAtMostOnce(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("c0-5 (2 effects)"));
  }

  @Test
  void aJournalRowOfNoIntentFails() {
    Run run = new Run();
    run.journal.add(new JournalRow("op_9", "deposit", "20.0077"));
    run.journal.add(new JournalRow("op_10", "deposit", "13.0000"));
    run.journal.add(new JournalRow("op_11", "reversal", "1.0001")); // not an intent's own row
    Verdict v = verdict(new Checks.NoUnexplainedEffects(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.violations()).isEqualTo(2);
    assertThat(v.checked()).isEqualTo(8);
  }

  @Test
  void aReplayThatDiffersFails() {
    Run run = new Run();
    run.replays.add(new ReplayRecord("c0-2", false, "first 201, later 422"));
    Verdict v = verdict(new Checks.ReplaysEqual(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.checked()).isEqualTo(2);
    assertThat(v.examples()).isEqualTo(List.of("c0-2 (first 201, later 422)"));
  }

  @Test
  void aReusedKeyThatIsNotRefusedFails() {
    Run run = new Run();
    run.reuses.add(new ReuseRecord("c0-4", 201, null));
    assertThat(verdict(new Checks.KeyReuseRefused(), run).pass()).isFalse();
    Run other = new Run();
    other.reuses.add(new ReuseRecord("c0-4", 422, "insufficient-funds"));
    assertThat(verdict(new Checks.KeyReuseRefused(), other).pass()).isFalse();
  }

  @Test
  void aPaymentChargedTwiceOrNeverAtTheProviderFails() {
    Run twice = new Run();
    twice.effects.put("pay_1", 2L);
    twice.total = 5;
    Verdict v = verdict(new Checks.ProviderOncePerPaymentAndRefund(), twice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("pay_1 (2 effects)"));
    assertThat(verdict(new Checks.ProviderNoStrayEffects(), twice).pass()).isTrue();

    Run never = new Run();
    never.effects.remove("ref_1");
    never.total = 3;
    assertThat(verdict(new Checks.ProviderOncePerPaymentAndRefund(), never).pass()).isFalse();
  }

  @Test
  void aProviderEffectTheShopDoesNotKnowFails() {
    Run run = new Run();
    run.effects.put("pay_ghost", 1L);
    run.total = 5;
    Verdict v = verdict(new Checks.ProviderNoStrayEffects(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.violations()).isEqualTo(1);
  }

  @Test
  void aBalanceThatIsNotTheJournalSumOrWentNegativeFails() {
    Run off = new Run();
    off.balance = "39.0004";
    assertThat(verdict(new Checks.BalanceIsJournalSum(), off).pass()).isFalse();

    Run negative = new Run();
    negative.journal.add(0, new JournalRow("op_0", "charge", "-5.0000"));
    negative.journal.add(new JournalRow("op_5", "deposit", "5.0000"));
    Verdict v = verdict(new Checks.BalanceIsJournalSum(), negative);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("acc_A (negative after op_0)"));
  }

  @Test
  void anUndrainedOutboxOrDeadRowsFail() {
    Run backlog = new Run();
    backlog.backlog = 3;
    assertThat(verdict(new Checks.Quiet(), backlog).pass()).isFalse();
    Run pending = new Run();
    pending.pending = 1;
    assertThat(verdict(new Checks.Quiet(), pending).pass()).isFalse();
    Run dead = new Run();
    dead.dead = 2;
    Verdict v = verdict(new Checks.NoDeadOutboxRows(), dead);
    assertThat(v.pass()).isFalse();
    assertThat(v.violations()).isEqualTo(2);
  }

  @Test
  void aKeyLeftInUseFails() {
    Run run = new Run();
    run.keysInUse = 1;
    Verdict v = verdict(new Checks.NoKeyLeftInUse(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.checked()).isEqualTo(8);
  }

  @Test
  void verdictsKeepFiveExamples() {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      many.add("x" + i);
    }
    Verdict v = Verdict.of("n", 20, many);
    assertThat(v.violations()).isEqualTo(12);
    assertThat(v.examples().size()).isEqualTo(5);
    assertThat(v.pass()).isFalse();
    assertThat(Verdict.of("n", 20, List.of()).pass()).isTrue();
  }

  @Test
  void theTableHasOneRowPerCheck() {
    List<Verdict> verdicts = new ArrayList<>();
    for (Check c : Checks.all()) {
      verdicts.add(c.run(new Run().observations()));
    }
    String table = ChaosReport.table(verdicts);
    assertThat(table.lines().count()).as("a header, 18 rows and the summary line").isEqualTo(20);
    assertThat(table).as(table).contains("PASS: all 18 invariants hold");
  }

  @Test
  void anOrderPlacedTwiceOrNeverOrOfNoIntentFails() {
    Run twice = new Run();
    twice.orders.add(
        new OrderState(
            "ord_1b", ACC, "rejected", Map.of("C0-A", 2L, "C0-TAG", 1L), "4.0001", null, null));
    Verdict v = verdict(new OrderChecks.PlacedExactlyOnce(), twice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("c0-7 (201 ord_1, 2 orders)"));

    Run never = new Run();
    never.orders.remove(0);
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), never).examples())
        .isEqualTo(List.of("c0-7 (201 ord_1, 0 orders)"));

    Run timedOutOnce = new Run();
    timedOutOnce.orders.add(
        new OrderState(
            "ord_5", ACC, "rejected", Map.of("C0-A", 1L, "C0-TAG", 5L), "2.0005", null, null));
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), timedOutOnce).pass()).isTrue();
    timedOutOnce.orders.add(
        new OrderState(
            "ord_5b", ACC, "rejected", Map.of("C0-A", 1L, "C0-TAG", 5L), "2.0005", null, null));
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), timedOutOnce).examples())
        .isEqualTo(List.of("c0-11 (timed out, 2 orders)"));

    Run reuse = new Run();
    reuse.orders.add(
        new OrderState(
            "ord_6", ACC, "rejected", Map.of("C0-A", 2L, "C0-TAG", 6L), "4.0006", null, null));
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), reuse).examples())
        .isEqualTo(List.of("c0-7-reuse (422, 1 orders)"));

    Run stray = new Run();
    stray.orders.add(
        new OrderState(
            "ord_x", ACC, "rejected", Map.of("C0-A", 1L, "C0-TAG", 99L), "2.0099", null, null));
    assertThat(verdict(new OrderChecks.PlacedExactlyOnce(), stray).examples())
        .isEqualTo(List.of("ord_x (no intent)"));
  }

  @Test
  void stockThatDoesNotAddUpFails() {
    Run withTimedOutRestock = new Run();
    withTimedOutRestock.product("C0-A", 9, 2); // the timed-out restock of 3 applied once
    assertThat(verdict(new OrderChecks.StockBalanced(), withTimedOutRestock).pass()).isTrue();

    Run restockedTwice = new Run();
    restockedTwice.product("C0-A", 8, 2); // the acknowledged restock of 2 applied twice
    Verdict v = verdict(new OrderChecks.StockBalanced(), restockedTwice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("C0-A (8 + 2, expected [8, 11])"));
    assertThat(v.checked()).isEqualTo(4);

    Run lost = new Run();
    lost.product("C0-B", 0, 3);
    assertThat(verdict(new OrderChecks.StockBalanced(), lost).examples())
        .isEqualTo(List.of("C0-B (0 + 3, expected [4])"));

    Run negative = new Run();
    negative.product("C0-B", -1, 5);
    assertThat(verdict(new OrderChecks.StockBalanced(), negative).pass()).isFalse();

    Run missing = new Run();
    missing.products.remove(0);
    assertThat(verdict(new OrderChecks.StockBalanced(), missing).examples())
        .isEqualTo(List.of("C0-A (missing)"));
  }

  @Test
  void anOrderThatHoldsOtherThanItWasToldFails() {
    Run paidWithoutStock = new Run();
    paidWithoutStock.reservations.remove(0);
    Verdict v = verdict(new OrderChecks.HoldWhatWasOrdered(), paidWithoutStock);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("ord_1 (paid, C0-A null)"));

    Run cancelledButHeld = new Run();
    cancelledButHeld.reservations.set(7, new ReservationRow("ord_4", "C0-A", 1, "held"));
    assertThat(verdict(new OrderChecks.HoldWhatWasOrdered(), cancelledButHeld).examples())
        .isEqualTo(List.of("ord_4 (cancelled, holds C0-A)"));

    Run rejectedButHeld = new Run();
    rejectedButHeld.reservations.set(5, new ReservationRow("ord_3", "C0-B", 2, "held"));
    assertThat(verdict(new OrderChecks.HoldWhatWasOrdered(), rejectedButHeld).pass()).isFalse();

    Run otherUnits = new Run();
    otherUnits.reservations.set(0, new ReservationRow("ord_1", "C0-A", 3, "held"));
    assertThat(verdict(new OrderChecks.HoldWhatWasOrdered(), otherUnits).pass()).isFalse();

    Run otherItems = new Run();
    otherItems.orders.set(
        0,
        new OrderState(
            "ord_1", ACC, "paid", Map.of("C0-B", 2L, "C0-TAG", 1L), "6.0001", "pay_o1", null));
    assertThat(verdict(new OrderChecks.HoldWhatWasOrdered(), otherItems).pass()).isFalse();

    Run stillPlaced = new Run();
    stillPlaced.order("ord_3", "placed", null, null);
    assertThat(verdict(new OrderChecks.HoldWhatWasOrdered(), stillPlaced).examples())
        .isEqualTo(List.of("ord_3 (still placed)"));
  }

  @Test
  void reservedUnitsThatAreNotTheLiveOrdersFail() {
    Run releasedTwice = new Run(); // ord_4's release applied to ord_1's units too
    releasedTwice.product("C0-A", 7, 1);
    Verdict v = verdict(new OrderChecks.ReservedIsLiveOrders(), releasedTwice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("C0-A (reserved 1, live orders 2)"));
    assertThat(verdict(new OrderChecks.StockBalanced(), releasedTwice).pass()).isTrue();
  }

  @Test
  void anOrderPaidTwiceOrPaidAndRejectedFails() {
    Run twice = new Run();
    twice.orderPayments.add(new OrderPayment("pay_o1b", "ord_1", "succeeded"));
    Verdict v = verdict(new OrderChecks.PaidOnce(), twice);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples())
        .isEqualTo(List.of("ord_1 (paid, succeeded payments [pay_o1, pay_o1b])"));

    Run rejectedAndPaid = new Run();
    rejectedAndPaid.orderPayments.add(new OrderPayment("pay_o3", "ord_3", "succeeded"));
    assertThat(verdict(new OrderChecks.PaidOnce(), rejectedAndPaid).examples())
        .isEqualTo(List.of("ord_3 (rejected, 1 payments)"));

    Run reservedButPaid = new Run();
    reservedButPaid.order("ord_1", "reserved", "pay_o1", null);
    assertThat(verdict(new OrderChecks.PaidOnce(), reservedButPaid).pass()).isFalse();

    Run declinedSucceeded = new Run();
    declinedSucceeded.orderPayments.set(1, new OrderPayment("pay_o2", "ord_2", "succeeded"));
    declinedSucceeded.order("ord_2", "paid", "pay_o2", null);
    assertThat(verdict(new OrderChecks.PaidOnce(), declinedSucceeded).examples())
        .isEqualTo(List.of("ord_2 (declined total, succeeded payments [pay_o2])"));

    Run cancelledNotRefunded = new Run();
    cancelledNotRefunded.order("ord_1", "cancelled", "pay_o1", null);
    assertThat(verdict(new OrderChecks.PaidOnce(), cancelledNotRefunded).pass()).isFalse();
    cancelledNotRefunded.order("ord_1", "cancelled", "pay_o1", "ref_1");
    assertThat(verdict(new OrderChecks.PaidOnce(), cancelledNotRefunded).pass()).isTrue();
  }

  @Test
  void anAcknowledgedPayThatDidNotPayFails() {
    Run notPaid = new Run();
    notPaid.order("ord_1", "reserved", "pay_o1", null);
    Verdict v = verdict(new OrderChecks.AcknowledgedPays(), notPaid);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("c0-12 (payment succeeded, order reserved)"));

    Run failed = new Run();
    failed.orderPayments.set(0, new OrderPayment("pay_o1", "ord_1", "failed"));
    assertThat(verdict(new OrderChecks.AcknowledgedPays(), failed).pass()).isFalse();

    Run declinedButPaid = new Run();
    declinedButPaid.orderPayments.set(1, new OrderPayment("pay_o2", "ord_2", "succeeded"));
    declinedButPaid.order("ord_2", "paid", "pay_o2", null);
    assertThat(verdict(new OrderChecks.AcknowledgedPays(), declinedButPaid).pass()).isFalse();

    Run unknownPayment = new Run();
    unknownPayment.orderPayments.remove(0);
    assertThat(verdict(new OrderChecks.AcknowledgedPays(), unknownPayment).examples())
        .isEqualTo(List.of("c0-12 (payment pay_o1 of null)"));
  }

  @Test
  void anAcknowledgedCancelThatDidNotStickFails() {
    Run run = new Run();
    run.order("ord_4", "reserved", null, null);
    Verdict v = verdict(new OrderChecks.AcknowledgedCancels(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("c0-14 (answered cancelled, order reserved)"));
  }

  @Test
  void ordersJournalRowsAreTheirsButAnOrderChargedTwiceIsNotHidden() {
    Run run = new Run();
    run.journal.add(new JournalRow("op_9", "charge", "-4.0002")); // no order's total
    Verdict v = verdict(new Checks.NoUnexplainedEffects(), run);
    assertThat(v.pass()).isFalse();
    assertThat(v.examples()).isEqualTo(List.of("op_9 (charge -4.0002)"));

    Run chargedTwice = new Run(); // a second charge row for ord_1's one payment
    chargedTwice.journal.add(new JournalRow("op_10", "charge", "-4.0001"));
    chargedTwice.balance = "31.0001";
    assertThat(verdict(new Checks.NoUnexplainedEffects(), chargedTwice).examples())
        .isEqualTo(List.of("op_10 (charge -4.0001, beyond its order's)"));
    assertThat(verdict(new Checks.AcknowledgedExactlyOnce(), chargedTwice).pass()).isTrue();

    Run refundedUnasked = new Run(); // a refund of ord_1's total, though it was not cancelled
    refundedUnasked.journal.add(new JournalRow("op_10", "refund", "4.0001"));
    refundedUnasked.balance = "39.0003";
    assertThat(verdict(new Checks.NoUnexplainedEffects(), refundedUnasked).pass()).isFalse();
    refundedUnasked.order("ord_1", "cancelled", "pay_o1", "ref_1");
    assertThat(verdict(new Checks.NoUnexplainedEffects(), refundedUnasked).pass()).isTrue();

    Run twice = new Run(); // a second provider effect for the order's payment
    twice.effects.put("pay_o1", 2L);
    twice.total = 5;
    assertThat(verdict(new Checks.ProviderOncePerPaymentAndRefund(), twice).examples())
        .isEqualTo(List.of("pay_o1 (2 effects)"));
  }
}
