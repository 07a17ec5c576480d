package dev.once.verify.chaos;

import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.AccountState;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.JournalRow;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import dev.once.verify.report.Verdict;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The checks of {@code chaos}, in the order of the verdict table. */
public final class Checks {
  private Checks() {}

  /** All of them, in table order. */
  public static List<Check> all() {
    return List.of(
        new Quiet(),
        new AcknowledgedExactlyOnce(),
        new TimedOutAtMostOnce(),
        new NoUnexplainedEffects(),
        new ReplaysEqual(),
        new KeyReuseRefused(),
        new ProviderOncePerPaymentAndRefund(),
        new ProviderNoStrayEffects(),
        new BalanceIsJournalSum(),
        new NoDeadOutboxRows(),
        new NoKeyLeftInUse(),
        new OrderChecks.PlacedExactlyOnce(),
        new OrderChecks.StockBalanced(),
        new OrderChecks.HoldWhatWasOrdered(),
        new OrderChecks.ReservedIsLiveOrders(),
        new OrderChecks.PaidOnce(),
        new OrderChecks.AcknowledgedPays(),
        new OrderChecks.AcknowledgedCancels());
  }

  /**
   * The journal rows orders may have made, as {@code kind/account/amount} (unsigned) -> how many: a
   * charge per payment of the order and a refund if a cancellation refunded it, all for the order's
   * total, which no payment or refund intent's amount equals (see {@link Workload}).
   */
  static Map<String, Integer> orderRows(Observations o) {
    Map<String, Observations.OrderState> orders = new HashMap<>();
    Map<String, Integer> rows = new HashMap<>();
    for (Observations.OrderState order : o.orders().orders()) {
      orders.put(order.id(), order);
      rows.putIfAbsent("charge/" + amountKey(order.account(), order.total()), 0);
      rows.merge(
          "refund/" + amountKey(order.account(), order.total()),
          order.refundId() == null ? 0 : 1,
          Integer::sum);
    }
    for (Observations.OrderPayment p : o.orders().payments()) {
      Observations.OrderState order = orders.get(p.orderId());
      if (order != null) {
        rows.merge("charge/" + amountKey(order.account(), order.total()), 1, Integer::sum);
      }
    }
    return rows;
  }

  static String amountKey(String account, String amount) {
    return account + "/" + new BigDecimal(amount).abs().stripTrailingZeros().toPlainString();
  }

  /** How many journal rows each (account, kind, number) has. */
  static Map<String, Integer> effectCounts(Observations o) {
    Map<String, Integer> counts = new HashMap<>();
    Map<String, Integer> orders = orderRows(o);
    for (AccountState a : o.accounts()) {
      for (JournalRow row : a.journal()) {
        Kind kind = Kind.ofJournal(row.kind());
        if (kind == null
            || orders.containsKey(row.kind() + "/" + amountKey(a.account(), row.amount()))) {
          continue;
        }
        long n = Amounts.decode(kind, row.amount());
        counts.merge(key(a.account(), kind, n), 1, Integer::sum);
      }
    }
    return counts;
  }

  static String key(String account, Kind kind, long number) {
    return account + "/" + kind + "/" + number;
  }

  /** The outbox has drained and no payment or refund is left pending. */
  public static final class Quiet implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      if (o.backlog() > 0) {
        v.add("outbox backlog " + o.backlog());
      }
      if (o.pending() > 0) {
        v.add(o.pending() + " pending payments/refunds");
      }
      return Verdict.of(
          "outbox drained, no payment or refund pending",
          o.payments().size() + o.refunds().size(),
          v);
    }
  }

  /** A 201 took effect exactly once; any other answer not at all. */
  public static final class AcknowledgedExactlyOnce implements Check {
    @Override
    public Verdict run(Observations o) {
      return perIntent(
          o,
          false,
          (i, seen) ->
              seen != (i.status() == 201 ? 1 : 0)
                  ? i.id() + " (" + i.status() + ", " + seen + " effects)"
                  : null,
          "acknowledged: took effect exactly once (201) or never");
    }
  }

  /** A request that never got an answer took effect zero or one times. */
  public static final class TimedOutAtMostOnce implements Check {
    @Override
    public Verdict run(Observations o) {
      return perIntent(
          o,
          true,
          (i, seen) -> seen > 1 ? i.id() + " (" + seen + " effects)" : null,
          "timed out: took effect at most once");
    }
  }

  /** What one intent that took effect {@code seen} times breaks, or null. */
  private interface IntentJudge {
    String violation(IntentRecord intent, int seen);
  }

  /** Judges each intent that timed out (or each that did not) by its count of journal effects. */
  private static Verdict perIntent(Observations o, boolean timedOut, IntentJudge judge, String id) {
    Map<String, Integer> counts = effectCounts(o);
    List<String> v = new ArrayList<>();
    long checked = 0;
    for (IntentRecord i : o.intents()) {
      if (i.timedOut() != timedOut) {
        continue;
      }
      checked++;
      String violation =
          judge.violation(i, counts.getOrDefault(key(i.account(), i.kind(), i.number()), 0));
      if (violation != null) {
        v.add(violation);
      }
    }
    return Verdict.of(id, checked, v);
  }

  /**
   * Every deposit, charge and refund row of the journals belongs to an intent, or to an order: a
   * charge of its total per payment of the order, a refund of it if a cancellation refunded it.
   */
  public static final class NoUnexplainedEffects implements Check {
    @Override
    public Verdict run(Observations o) {
      Set<String> known = new HashSet<>();
      for (IntentRecord i : o.intents()) {
        known.add(key(i.account(), i.kind(), i.number()));
      }
      Map<String, Integer> orders = orderRows(o);
      List<String> v = new ArrayList<>();
      long checked = 0;
      for (AccountState a : o.accounts()) {
        for (JournalRow row : a.journal()) {
          Kind kind = Kind.ofJournal(row.kind());
          if (kind == null) {
            continue;
          }
          checked++;
          String order = row.kind() + "/" + amountKey(a.account(), row.amount());
          if (orders.containsKey(order)) {
            if (orders.merge(order, -1, Integer::sum) < 0) {
              v.add(row.id() + " (" + row.kind() + " " + row.amount() + ", beyond its order's)");
            }
            continue;
          }
          if (!known.contains(key(a.account(), kind, Amounts.decode(kind, row.amount())))) {
            v.add(row.id() + " (" + row.kind() + " " + row.amount() + ")");
          }
        }
      }
      return Verdict.of("every journal row belongs to an intent", checked, v);
    }
  }

  /** Each replay (and each concurrent duplicate) got the first answer's status and body. */
  public static final class ReplaysEqual implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      for (ReplayRecord r : o.replays()) {
        if (!r.equal()) {
          v.add(r.intentId() + " (" + r.detail() + ")");
        }
      }
      return Verdict.of("replays equal the first answer", o.replays().size(), v);
    }
  }

  /** A key sent again with another body is refused with 422 idempotency-key-reused. */
  public static final class KeyReuseRefused implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      for (ReuseRecord r : o.reuses()) {
        if (r.status() != 422 || !"idempotency-key-reused".equals(r.slug())) {
          v.add(r.intentId() + " (" + r.status() + " " + r.slug() + ")");
        }
      }
      return Verdict.of("key reused with another body: 422", o.reuses().size(), v);
    }
  }

  /** The provider applied exactly one charge per payment and one refund per refund. */
  public static final class ProviderOncePerPaymentAndRefund implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      List<String> all = new ArrayList<>(o.payments());
      all.addAll(o.refunds());
      for (String id : all) {
        long effects = o.providerEffects().getOrDefault(id, 0L);
        if (effects != 1) {
          v.add(id + " (" + effects + " effects)");
        }
      }
      return Verdict.of("provider: one effect per payment and refund", all.size(), v);
    }
  }

  /** The provider applied nothing that is not one of the shop's payments or refunds. */
  public static final class ProviderNoStrayEffects implements Check {
    @Override
    public Verdict run(Observations o) {
      long known = 0;
      for (String id : o.payments()) {
        known += o.providerEffects().getOrDefault(id, 0L);
      }
      for (String id : o.refunds()) {
        known += o.providerEffects().getOrDefault(id, 0L);
      }
      long stray = o.providerTotalEffects() - known;
      List<String> v = new ArrayList<>();
      for (long i = 0; i < stray; i++) {
        v.add("effect without a shop payment or refund");
      }
      return Verdict.of("provider: no effect the shop does not know", o.providerTotalEffects(), v);
    }
  }

  /** Each balance is its journal's sum, and the running balance is never negative. */
  public static final class BalanceIsJournalSum implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      for (AccountState a : o.accounts()) {
        BigDecimal sum = BigDecimal.ZERO;
        String negative = null;
        for (JournalRow row : a.journal()) {
          sum = sum.add(new BigDecimal(row.amount()));
          if (sum.signum() < 0 && negative == null) {
            negative = row.id();
          }
        }
        if (new BigDecimal(a.balance()).compareTo(sum) != 0) {
          v.add(
              a.account() + " (balance " + a.balance() + ", journal " + sum.toPlainString() + ")");
        } else if (negative != null) {
          v.add(a.account() + " (negative after " + negative + ")");
        }
      }
      return Verdict.of("balance = journal sum, never negative", o.accounts().size(), v);
    }
  }

  /** No outbox row gave up. */
  public static final class NoDeadOutboxRows implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      for (long i = 0; i < o.dead(); i++) {
        v.add("dead outbox row");
      }
      return Verdict.of("no dead outbox rows", o.payments().size() + o.refunds().size(), v);
    }
  }

  /** Once quiet, no idempotency key is left claimed (in_progress): each got its stored answer. */
  public static final class NoKeyLeftInUse implements Check {
    @Override
    public Verdict run(Observations o) {
      List<String> v = new ArrayList<>();
      for (long i = 0; i < o.keysInUse(); i++) {
        v.add("key in use");
      }
      return Verdict.of("no idempotency key left in use", o.keys(), v);
    }
  }
}
