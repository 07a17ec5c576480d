package dev.once.verify.chaos;

import dev.once.verify.chaos.Observations.OrderAction;
import dev.once.verify.chaos.Observations.OrderIntent;
import dev.once.verify.chaos.Observations.OrderObservations;
import dev.once.verify.chaos.Observations.OrderPayment;
import dev.once.verify.chaos.Observations.OrderState;
import dev.once.verify.chaos.Observations.ProductState;
import dev.once.verify.chaos.Observations.ReservationRow;
import dev.once.verify.chaos.Observations.RestockRecord;
import dev.once.verify.report.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The checks of the orders, products and stock, from the clients' side: what they were told against
 * what the shop ends with. The database's own view of reservations is {@code check}'s invariants,
 * which chaos appends as {@code db:} rows.
 */
final class OrderChecks {
  private OrderChecks() {}

  private static final Set<String> LIVE = Set.of("reserved", "paid");

  /** account/tag units: the key that attributes an order to its intent (see {@link Workload}). */
  static String key(String account, long number) {
    return account + "/" + number;
  }

  static Map<String, List<OrderState>> ordersByKey(OrderObservations o) {
    Map<String, List<OrderState>> byKey = new HashMap<>();
    for (OrderState order : o.orders()) {
      byKey
          .computeIfAbsent(
              key(order.account(), Workload.tagUnits(order.items())), k -> new ArrayList<>())
          .add(order);
    }
    return byKey;
  }

  /** The intents that were answered 201, by the order id they were told. */
  static Map<String, OrderIntent> intentsByOrder(OrderObservations o) {
    Map<String, OrderIntent> byOrder = new HashMap<>();
    for (OrderIntent i : o.placed()) {
      if (i.orderId() != null) {
        byOrder.put(i.orderId(), i);
      }
    }
    return byOrder;
  }

  static Map<String, OrderState> ordersById(OrderObservations o) {
    Map<String, OrderState> byId = new HashMap<>();
    for (OrderState order : o.orders()) {
      byId.put(order.id(), order);
    }
    return byId;
  }

  /**
   * An order placed with a 201 exists exactly once, and is the order the client was told; a
   * timed-out one at most once; one answered otherwise (a 422 key reuse) not at all; and every
   * order of the shop belongs to an intent. A retry that created a second order breaks it.
   */
  static final class PlacedExactlyOnce implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, List<OrderState>> byKey = ordersByKey(o);
      Set<String> known = new HashSet<>();
      List<String> v = new ArrayList<>();
      for (OrderIntent i : o.placed()) {
        String key = key(i.account(), i.number());
        known.add(key);
        List<OrderState> found = byKey.getOrDefault(key, List.of());
        if (i.timedOut()) {
          if (found.size() > 1) {
            v.add(i.id() + " (timed out, " + found.size() + " orders)");
          }
        } else if (i.status() == 201) {
          if (found.size() != 1 || !found.get(0).id().equals(i.orderId())) {
            v.add(i.id() + " (201 " + i.orderId() + ", " + found.size() + " orders)");
          }
        } else if (!found.isEmpty()) {
          v.add(i.id() + " (" + i.status() + ", " + found.size() + " orders)");
        }
      }
      for (OrderState order : o.orders()) {
        if (!known.contains(key(order.account(), Workload.tagUnits(order.items())))) {
          v.add(order.id() + " (no intent)");
        }
      }
      return Verdict.of(
          "orders: placed exactly once (201), at most once (timed out)",
          o.placed().size() + o.orders().size(),
          v);
    }
  }

  /**
   * Each product's units: available + reserved = initial + acknowledged restocks + some of the
   * timed-out ones (each applied zero or one times), and neither is negative; as GET answers them.
   */
  static final class StockBalanced implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, Set<Long>> possible = new TreeMap<>();
      for (Map.Entry<String, Long> e : o.initialStock().entrySet()) {
        possible.put(e.getKey(), new TreeSet<>(Set.of(e.getValue())));
      }
      for (RestockRecord r : o.restocks()) {
        Set<Long> sums = possible.computeIfAbsent(r.sku(), s -> new TreeSet<>(Set.of(0L)));
        if (r.status() == null || r.status() == 200) {
          Set<Long> next = new TreeSet<>();
          for (long sum : sums) {
            next.add(sum + r.quantity());
            if (r.status() == null) {
              next.add(sum);
            }
          }
          possible.put(r.sku(), next);
        }
      }
      Map<String, ProductState> seen = new HashMap<>();
      for (ProductState p : o.products()) {
        seen.put(p.sku(), p);
      }
      List<String> v = new ArrayList<>();
      for (Map.Entry<String, Set<Long>> e : possible.entrySet()) {
        ProductState p = seen.get(e.getKey());
        if (p == null) {
          v.add(e.getKey() + " (missing)");
          continue;
        }
        long units = p.stock() + p.reserved();
        if (p.stock() < 0 || p.reserved() < 0 || !e.getValue().contains(units)) {
          v.add(
              p.sku()
                  + " ("
                  + p.stock()
                  + " + "
                  + p.reserved()
                  + ", expected "
                  + e.getValue()
                  + ")");
        }
      }
      return Verdict.of(
          "stock: available + reserved = initial + restocks, >= 0", possible.size(), v);
    }
  }

  /**
   * Each order holds what its client ordered: the shop's items are the ones sent; a reserved or
   * paid order holds every line with its units, a rejected or cancelled one holds nothing, and no
   * order is still placed once quiet.
   */
  static final class HoldWhatWasOrdered implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, OrderIntent> intents = new HashMap<>();
      for (OrderIntent i : o.placed()) {
        intents.put(key(i.account(), i.number()), i);
      }
      Map<String, Map<String, ReservationRow>> rows = new HashMap<>();
      for (ReservationRow r : o.reservations()) {
        rows.computeIfAbsent(r.orderId(), k -> new HashMap<>()).put(r.sku(), r);
      }
      List<String> v = new ArrayList<>();
      for (OrderState order : o.orders()) {
        OrderIntent intent = intents.get(key(order.account(), Workload.tagUnits(order.items())));
        Map<String, ReservationRow> held = rows.getOrDefault(order.id(), Map.of());
        if (intent != null && !intent.items().equals(order.items())) {
          v.add(order.id() + " (items " + order.items() + ", sent " + intent.items() + ")");
        } else if ("placed".equals(order.status())) {
          v.add(order.id() + " (still placed)");
        } else if (LIVE.contains(order.status())) {
          for (Map.Entry<String, Long> item : order.items().entrySet()) {
            ReservationRow r = held.get(item.getKey());
            if (r == null || !"held".equals(r.state()) || r.quantity() != item.getValue()) {
              v.add(order.id() + " (" + order.status() + ", " + item.getKey() + " " + r + ")");
              break;
            }
          }
          if (!order.items().keySet().containsAll(held.keySet())) {
            v.add(order.id() + " (reservations for other skus " + held.keySet() + ")");
          }
        } else {
          for (ReservationRow r : held.values()) {
            if ("held".equals(r.state())) {
              v.add(order.id() + " (" + order.status() + ", holds " + r.sku() + ")");
              break;
            }
          }
        }
      }
      return Verdict.of(
          "orders: live ones hold what was ordered, others nothing", o.orders().size(), v);
    }
  }

  /**
   * Each product's reserved units, as GET answers them, are the units of its reserved and paid
   * orders: a release applied twice, or a reservation taken twice, breaks it.
   */
  static final class ReservedIsLiveOrders implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, Long> live = new HashMap<>();
      for (OrderState order : o.orders()) {
        if (LIVE.contains(order.status())) {
          order.items().forEach((sku, units) -> live.merge(sku, units, Long::sum));
        }
      }
      List<String> v = new ArrayList<>();
      for (ProductState p : o.products()) {
        long expected = live.getOrDefault(p.sku(), 0L);
        if (p.reserved() != expected) {
          v.add(p.sku() + " (reserved " + p.reserved() + ", live orders " + expected + ")");
        }
      }
      return Verdict.of(
          "stock: reserved = units of reserved and paid orders", o.products().size(), v);
    }
  }

  /**
   * Money for orders: a paid order has exactly one succeeded payment, the one it names; a cancelled
   * order at most one, refunded; a rejected order no payment at all (never paid and rejected); a
   * placed or reserved order no succeeded one; a declined total never succeeds.
   */
  static final class PaidOnce implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, List<OrderPayment>> byOrder = new HashMap<>();
      for (OrderPayment p : o.payments()) {
        byOrder.computeIfAbsent(p.orderId(), k -> new ArrayList<>()).add(p);
      }
      Map<String, OrderIntent> intents = intentsByOrder(o);
      Set<String> refunds = new HashSet<>(obs.refunds());
      List<String> v = new ArrayList<>();
      for (OrderState order : o.orders()) {
        List<OrderPayment> payments = byOrder.getOrDefault(order.id(), List.of());
        List<String> succeeded = new ArrayList<>();
        for (OrderPayment p : payments) {
          if ("succeeded".equals(p.status())) {
            succeeded.add(p.id());
          }
        }
        OrderIntent intent = intents.get(order.id());
        String problem = null;
        switch (order.status()) {
          case "paid" -> {
            if (succeeded.size() != 1 || !succeeded.get(0).equals(order.paymentId())) {
              problem = "paid, succeeded payments " + succeeded;
            }
          }
          case "rejected" -> {
            if (!payments.isEmpty()) {
              problem = "rejected, " + payments.size() + " payments";
            }
          }
          case "cancelled" -> {
            if (succeeded.size() > 1) {
              problem = "cancelled, succeeded payments " + succeeded;
            } else if (succeeded.size() == 1
                && (order.refundId() == null || !refunds.contains(order.refundId()))) {
              problem = "cancelled after payment, refund " + order.refundId();
            }
          }
          default -> {
            if (!succeeded.isEmpty()) {
              problem = order.status() + ", succeeded payments " + succeeded;
            }
          }
        }
        if (problem == null && intent != null && intent.decline() && !succeeded.isEmpty()) {
          problem = "declined total, succeeded payments " + succeeded;
        }
        if (problem != null) {
          v.add(order.id() + " (" + problem + ")");
        }
      }
      return Verdict.of(
          "orders: paid once by one succeeded payment, rejected never", o.orders().size(), v);
    }
  }

  /**
   * An acknowledged pay (201) made a payment of that order that ended as the order's total
   * dictates: declined totals failed and left the order unpaid, others succeeded and the order is
   * paid by it (or cancelled afterwards).
   */
  static final class AcknowledgedPays implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, OrderPayment> payments = new HashMap<>();
      for (OrderPayment p : o.payments()) {
        payments.put(p.id(), p);
      }
      Map<String, OrderState> orders = ordersById(o);
      Map<String, OrderIntent> intents = intentsByOrder(o);
      List<String> v = new ArrayList<>();
      long checked = 0;
      for (OrderAction a : o.actions()) {
        if (!a.pay() || a.status() == null || a.status() != 201) {
          continue;
        }
        checked++;
        OrderPayment p = payments.get(a.answered());
        OrderState order = orders.get(a.orderId());
        OrderIntent intent = intents.get(a.orderId());
        boolean decline = intent != null && intent.decline();
        String problem = null;
        if (p == null || order == null || !p.orderId().equals(a.orderId())) {
          problem = "payment " + a.answered() + " of " + (p == null ? null : p.orderId());
        } else if (decline) {
          if (!"failed".equals(p.status())
              || a.answered().equals(order.paymentId()) && "paid".equals(order.status())) {
            problem = "declined total, payment " + p.status() + ", order " + order.status();
          }
        } else if (!"succeeded".equals(p.status())
            || !a.answered().equals(order.paymentId())
            || !Set.of("paid", "cancelled").contains(order.status())) {
          problem = "payment " + p.status() + ", order " + order.status();
        }
        if (problem != null) {
          v.add(a.id() + " (" + problem + ")");
        }
      }
      return Verdict.of("acknowledged pay: payment succeeded and paid, or declined", checked, v);
    }
  }

  /** An acknowledged cancel (200) answered the order cancelled, and it stayed cancelled. */
  static final class AcknowledgedCancels implements Check {
    @Override
    public Verdict run(Observations obs) {
      OrderObservations o = obs.orders();
      Map<String, OrderState> orders = ordersById(o);
      List<String> v = new ArrayList<>();
      long checked = 0;
      for (OrderAction a : o.actions()) {
        if (a.pay() || a.status() == null || a.status() != 200) {
          continue;
        }
        checked++;
        OrderState order = orders.get(a.orderId());
        if (!"cancelled".equals(a.answered())
            || order == null
            || !"cancelled".equals(order.status())) {
          v.add(
              a.id()
                  + " (answered "
                  + a.answered()
                  + ", order "
                  + (order == null ? null : order.status())
                  + ")");
        }
      }
      return Verdict.of("acknowledged cancel: order cancelled", checked, v);
    }
  }
}
