package dev.once.verify.chaos;

import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.OrderIntent;
import dev.once.verify.chaos.Observations.OrderState;
import dev.once.verify.failover.ReplicatedPostgres.Failover;
import dev.once.verify.report.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The failovers of a run ({@code chaos --failover}) and what they cost: when each primary died,
 * when its standby answered as the primary, when the old one was a standby again; what the clients
 * saw from the kill to the first 201 of a request sent after it; and the check of its own that
 * every acknowledged answer survived the failovers after it.
 */
final class Failovers {
  /** One failover and, once done, when the old primary streamed again as the standby. */
  private record Done(Failover failover, long rebuilt) {}

  private final List<Done> done = new ArrayList<>();

  /** What {@link #lostAcknowledgements} found: how many, and the longest time before a failover. */
  private long lost;

  private long window;

  /** A failover took place. */
  synchronized void failedOver(Failover f) {
    done.add(new Done(f, 0));
  }

  /** The last failover's old primary is a standby again (at {@link System#nanoTime()}). */
  synchronized void rebuilt(long at) {
    Done last = done.remove(done.size() - 1);
    done.add(new Done(last.failover(), at));
  }

  synchronized int count() {
    return done.size();
  }

  /**
   * What the check found, for the report: the acknowledged answers lost, and the window of the loss
   * (the longest time from a lost answer to the failover that lost it).
   */
  synchronized Map<String, Object> lossFacts() {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("acknowledged answers lost in failovers", lost);
    facts.put("loss window s", seconds(window));
    return facts;
  }

  /**
   * Every acknowledged answer (a 201 to a money intent or an order) whose effect is not in the
   * database, answered before a failover: lost in the first failover after its answer, with the key
   * and the time between the answer and that failover. With a synchronous standby there must be
   * none; an asynchronous one may lose the commits it had not received.
   */
  Verdict lostAcknowledgements(Observations o, Map<String, Long> answeredAt, long seed) {
    List<Failover> failovers;
    synchronized (this) {
      failovers = done.stream().map(Done::failover).toList();
    }
    Map<String, Integer> effects = Checks.effectCounts(o);
    Set<String> orders = new HashSet<>();
    for (OrderState order : o.orders().orders()) {
      orders.add(order.id());
    }
    List<String> lost = new ArrayList<>();
    long checked = 0;
    for (IntentRecord i : o.intents()) {
      if (Integer.valueOf(201).equals(i.status())) {
        checked++;
        if (effects.getOrDefault(Checks.key(i.account(), i.kind(), i.number()), 0) == 0) {
          describe(i.id(), i.kind().toString(), answeredAt, failovers, seed, lost);
        }
      }
    }
    for (OrderIntent p : o.orders().placed()) {
      if (Integer.valueOf(201).equals(p.status())) {
        checked++;
        if (p.orderId() == null || !orders.contains(p.orderId())) {
          describe(p.id(), "order", answeredAt, failovers, seed, lost);
        }
      }
    }
    synchronized (this) {
      this.lost = lost.size();
    }
    return Verdict.of("acknowledged before a failover: still there after it", checked, lost);
  }

  private void describe(
      String id,
      String what,
      Map<String, Long> answeredAt,
      List<Failover> failovers,
      long seed,
      List<String> lost) {
    Long at = answeredAt.get(id);
    for (int n = 0; at != null && n < failovers.size(); n++) {
      Failover f = failovers.get(n);
      if (f.killed() >= at) {
        synchronized (this) {
          window = Math.max(window, f.killed() - at);
        }
        lost.add(
            String.format(
                Locale.ROOT,
                "%s (%s, key chaos-%d-%s, answered 201 %.3f s before failover %d, %s -> %s)",
                id,
                what,
                seed,
                id,
                (f.killed() - at) / 1e9,
                n + 1,
                f.from(),
                f.to()));
        return;
      }
    }
    // answered after the last failover: not this check's; AcknowledgedExactlyOnce reports it
  }

  /**
   * Each failover as the report gives it: when (seconds into the workload), the promotion, the
   * first 201 of a request sent after the kill, and the answers from the kill to that 201.
   */
  synchronized List<Map<String, Object>> facts(long workloadStart, Counters counters) {
    List<Map<String, Object>> facts = new ArrayList<>();

    for (int n = 0; n < done.size(); n++) {
      Failover f = done.get(n).failover();
      long firstAck = Long.MAX_VALUE;
      for (long[] a : counters.attempts) {
        if (a[2] == 201 && a[0] > f.killed()) {
          firstAck = Math.min(firstAck, a[1]);
        }
      }
      long unavailable = 0;
      long serverErrors = 0;
      long noAnswer = 0;
      for (long[] a : counters.attempts) {
        if (a[1] >= f.killed() && a[1] <= firstAck) {
          unavailable += a[2] == 503 ? 1 : 0;
          serverErrors += a[2] >= 500 && a[2] != 503 ? 1 : 0;
          noAnswer += a[2] == 0 ? 1 : 0;
        }
      }
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("failover", n + 1);
      one.put("at s", seconds(f.killed() - workloadStart));
      one.put("from", f.from());
      one.put("to", f.to());
      one.put("promoted after s", seconds(f.promoted() - f.killed()));
      one.put(
          "first 201 after s",
          firstAck == Long.MAX_VALUE ? "none" : seconds(firstAck - f.killed()));
      one.put("503 until then", unavailable);
      one.put("other 5xx until then", serverErrors);
      one.put("no answer until then", noAnswer);
      long rebuilt = done.get(n).rebuilt();
      one.put("standby again after s", rebuilt == 0 ? "not yet" : seconds(rebuilt - f.killed()));
      facts.add(one);
    }
    return facts;
  }

  private static double seconds(long nanos) {
    return Math.round(nanos / 1e6) / 1e3;
  }
}
