package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.AccountState;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.JournalRow;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each check on hand-made observations: a good run passes, each breakage fails its check. */
class ChecksTest {
  private static final String ACC = "acc_A";

  /** A small, correct run: 2 deposits, 2 payments (one refused), 1 refund, 1 timed out. */
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
                new JournalRow("op_4", "deposit", "20.0002")));
    String balance = "39.0003";
    List<ReplayRecord> replays = new ArrayList<>(List.of(new ReplayRecord("c0-1", true, "equal")));
    List<ReuseRecord> reuses =
        new ArrayList<>(List.of(new ReuseRecord("c0-2", 422, "idempotency-key-reused")));
    List<String> payments = new ArrayList<>(List.of("pay_1"));
    List<String> refunds = new ArrayList<>(List.of("ref_1"));
    Map<String, Long> effects = new HashMap<>(Map.of("pay_1", 1L, "ref_1", 1L));
    long total = 2;
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
          keysInUse);
    }
  }

  private static Verdict verdict(Check check, Run run) {
    return check.run(run.observations());
  }

  @Test
  void aCorrectRunPassesEveryCheck() {
    for (Check c : Checks.all()) {
      Verdict v = verdict(c, new Run());
      assertTrue(v.pass(), v.toString());
      assertEquals(0, v.violations());
    }
    assertEquals(4, verdict(new Checks.AcknowledgedExactlyOnce(), new Run()).checked());
    assertEquals(2, verdict(new Checks.TimedOutAtMostOnce(), new Run()).checked());
    assertEquals(11, Checks.all().size());
  }

  @Test
  void anAcknowledgedIntentAppliedTwiceOrNeverFails() {
    Run twice = new Run();
    twice.journal.add(new JournalRow("op_9", "charge", "-1.0001"));
    twice.balance = "38.0002";
    Verdict v = verdict(new Checks.AcknowledgedExactlyOnce(), twice);
    assertFalse(v.pass());
    assertEquals(List.of("c0-2 (201, 2 effects)"), v.examples());

    Run never = new Run();
    never.journal.remove(0);
    assertFalse(verdict(new Checks.AcknowledgedExactlyOnce(), never).pass());

    Run refusedButApplied = new Run();
    refusedButApplied.journal.add(new JournalRow("op_9", "charge", "-1.0002"));
    assertEquals(
        List.of("c0-3 (422, 1 effects)"),
        verdict(new Checks.AcknowledgedExactlyOnce(), refusedButApplied).examples());
  }

  @Test
  void aTimedOutIntentAppliedTwiceFails() {
    Run run = new Run();
    run.journal.add(new JournalRow("op_9", "deposit", "20.0002"));
    Verdict v = verdict(new Checks.TimedOutAtMostOnce(), run);
    assertFalse(v.pass());
    assertEquals(List.of("c0-5 (2 effects)"), v.examples());
  }

  @Test
  void aJournalRowOfNoIntentFails() {
    Run run = new Run();
    run.journal.add(new JournalRow("op_9", "deposit", "20.0077"));
    run.journal.add(new JournalRow("op_10", "deposit", "13.0000"));
    run.journal.add(new JournalRow("op_11", "reversal", "1.0001")); // not an intent's own row
    Verdict v = verdict(new Checks.NoUnexplainedEffects(), run);
    assertFalse(v.pass());
    assertEquals(2, v.violations());
    assertEquals(6, v.checked());
  }

  @Test
  void aReplayThatDiffersFails() {
    Run run = new Run();
    run.replays.add(new ReplayRecord("c0-2", false, "first 201, later 422"));
    Verdict v = verdict(new Checks.ReplaysEqual(), run);
    assertFalse(v.pass());
    assertEquals(2, v.checked());
    assertEquals(List.of("c0-2 (first 201, later 422)"), v.examples());
  }

  @Test
  void aReusedKeyThatIsNotRefusedFails() {
    Run run = new Run();
    run.reuses.add(new ReuseRecord("c0-4", 201, null));
    assertFalse(verdict(new Checks.KeyReuseRefused(), run).pass());
    Run other = new Run();
    other.reuses.add(new ReuseRecord("c0-4", 422, "insufficient-funds"));
    assertFalse(verdict(new Checks.KeyReuseRefused(), other).pass());
  }

  @Test
  void aPaymentChargedTwiceOrNeverAtTheProviderFails() {
    Run twice = new Run();
    twice.effects.put("pay_1", 2L);
    twice.total = 3;
    Verdict v = verdict(new Checks.ProviderOncePerPaymentAndRefund(), twice);
    assertFalse(v.pass());
    assertEquals(List.of("pay_1 (2 effects)"), v.examples());
    assertTrue(verdict(new Checks.ProviderNoStrayEffects(), twice).pass());

    Run never = new Run();
    never.effects.remove("ref_1");
    never.total = 1;
    assertFalse(verdict(new Checks.ProviderOncePerPaymentAndRefund(), never).pass());
  }

  @Test
  void aProviderEffectTheShopDoesNotKnowFails() {
    Run run = new Run();
    run.effects.put("pay_ghost", 1L);
    run.total = 3;
    Verdict v = verdict(new Checks.ProviderNoStrayEffects(), run);
    assertFalse(v.pass());
    assertEquals(1, v.violations());
  }

  @Test
  void aBalanceThatIsNotTheJournalSumOrWentNegativeFails() {
    Run off = new Run();
    off.balance = "39.0004";
    assertFalse(verdict(new Checks.BalanceIsJournalSum(), off).pass());

    Run negative = new Run();
    negative.journal.add(0, new JournalRow("op_0", "charge", "-5.0000"));
    negative.journal.add(new JournalRow("op_5", "deposit", "5.0000"));
    Verdict v = verdict(new Checks.BalanceIsJournalSum(), negative);
    assertFalse(v.pass());
    assertEquals(List.of("acc_A (negative after op_0)"), v.examples());
  }

  @Test
  void anUndrainedOutboxOrDeadRowsFail() {
    Run backlog = new Run();
    backlog.backlog = 3;
    assertFalse(verdict(new Checks.Quiet(), backlog).pass());
    Run pending = new Run();
    pending.pending = 1;
    assertFalse(verdict(new Checks.Quiet(), pending).pass());
    Run dead = new Run();
    dead.dead = 2;
    Verdict v = verdict(new Checks.NoDeadOutboxRows(), dead);
    assertFalse(v.pass());
    assertEquals(2, v.violations());
  }

  @Test
  void aKeyLeftInUseFails() {
    Run run = new Run();
    run.keysInUse = 1;
    Verdict v = verdict(new Checks.NoKeyLeftInUse(), run);
    assertFalse(v.pass());
    assertEquals(8, v.checked());
  }

  @Test
  void verdictsKeepFiveExamples() {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      many.add("x" + i);
    }
    Verdict v = Verdict.of("n", 20, many);
    assertEquals(12, v.violations());
    assertEquals(5, v.examples().size());
    assertFalse(v.pass());
    assertTrue(Verdict.of("n", 20, List.of()).pass());
  }

  @Test
  void theTableHasOneRowPerCheck() {
    List<Verdict> verdicts = new ArrayList<>();
    for (Check c : Checks.all()) {
      verdicts.add(c.run(new Run().observations()));
    }
    String table = ChaosReport.table(verdicts);
    assertEquals(12, table.lines().count());
    assertTrue(table.contains("PASS"));
  }
}
