package dev.once.verify.chaos;

import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.OrderAction;
import dev.once.verify.chaos.Observations.OrderIntent;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.RestockRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import dev.once.verify.chaos.Schedule.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One virtual client of the chaos workload: its API key, accounts and products, looping over its
 * seeded steps (payments, deposits, refunds, orders, pays, cancels, restocks) until the run ends;
 * each intent sent until answered, from a second thread at once too and replayed as its step says,
 * with the key reused under another body now and then, and every outcome recorded in the {@link
 * Workload}.
 */
final class Client implements Runnable {
  private final Workload w;
  final int index;
  final String apiKey;
  final List<String> accountIds;
  final Schedule.ClientPlan plan;
  final Map<String, long[]> numbers = new HashMap<>();
  final Map<String, List<String>> payments = new HashMap<>();
  final List<String> orders = new ArrayList<>();
  long orderNumber;
  int intentCount;

  Client(Workload w, int index, String apiKey, List<String> accountIds, Schedule.ClientPlan plan) {
    this.w = w;
    this.index = index;
    this.apiKey = apiKey;
    this.accountIds = accountIds;
    this.plan = plan;
  }

  @Override
  public void run() {
    try {
      while (!w.over()) {
        Step step = plan.next();
        Thread.sleep(step.pauseMillis());
        step(step);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      System.err.println("chaos client " + index + " failed: " + e);
      e.printStackTrace(System.err);
    }
  }

  private long nextNumber(String account, Kind kind) {
    long[] n = numbers.computeIfAbsent(account, a -> new long[Kind.values().length]);
    n[kind.ordinal()] = Amounts.next(n[kind.ordinal()]);
    return n[kind.ordinal()];
  }

  private void step(Step step) throws InterruptedException {
    switch (step.action()) {
      case ORDER -> order(step);
      case PAY, CANCEL -> payOrCancel(step);
      case RESTOCK -> restock(step);
      default -> money(step);
    }
  }

  private void money(Step step) throws InterruptedException {
    String account = accountIds.get(step.account());
    Kind kind;
    String path;
    switch (step.action()) {
      case DEPOSIT -> {
        kind = Kind.DEPOSIT;
        path = "/v1/accounts/" + account + "/deposits";
      }
      case PAYMENT -> {
        kind = Kind.PAYMENT;
        path = "/v1/payments";
      }
      default -> {
        List<String> paid = payments.getOrDefault(account, List.of());
        if (paid.isEmpty()) {
          return;
        }
        String payment = paid.get(step.target() % paid.size());
        Http.Answer p = w.sendUntilAnswer(apiKey, "/v1/payments/" + payment, null, null);
        if (p == null || p.status() != 200 || !"succeeded".equals(Http.field(p.body(), "status"))) {
          return;
        }
        kind = Kind.REFUND;
        path = "/v1/payments/" + payment + "/refunds";
      }
    }
    String id = nextId();
    long number = nextNumber(account, kind);
    String key = "chaos-" + w.seed + "-" + id;
    Http.Answer first = send(id, path, key, Workload.body(kind, account, number), step);
    answered(id, first);
    w.intents.add(
        new IntentRecord(id, account, kind, number, first == null ? null : first.status()));
    if (first == null) {
      return;
    }
    if (kind == Kind.PAYMENT && first.status() == 201) {
      payments.computeIfAbsent(account, a -> new ArrayList<>()).add(Http.field(first.body(), "id"));
    }
    if (step.reuse()) {
      long other = nextNumber(account, kind);
      Http.Answer reused = reuse(id, path, key, Workload.body(kind, account, other));
      w.intents.add(
          new IntentRecord(
              id + "-reuse", account, kind, other, reused == null ? null : reused.status()));
    }
  }

  /** Notes when an intent got its first answer, if it got one. */
  private void answered(String id, Http.Answer first) {
    if (first != null) {
      w.answeredAt.put(id, System.nanoTime());
    }
  }

  private void order(Step step) throws InterruptedException {
    String account = accountIds.get(step.account());
    String id = nextId();
    String key = "chaos-" + w.seed + "-" + id;
    orderNumber = Amounts.next(orderNumber);
    long n = orderNumber;
    boolean decline = step.decline() && n < 5_000;
    Map<String, Long> items = Workload.orderItems(index, n, step.first(), step.second(), decline);
    Http.Answer first = send(id, "/v1/orders", key, Workload.orderBody(account, items), step);
    answered(id, first);
    String orderId = first != null && first.status() == 201 ? Http.field(first.body(), "id") : null;
    w.placed.add(
        new OrderIntent(
            id, account, n, items, decline, first == null ? null : first.status(), orderId));
    if (orderId != null) {
      orders.add(orderId);
    }
    if (first != null && step.reuse()) {
      orderNumber = Amounts.next(orderNumber);
      Map<String, Long> other =
          Workload.orderItems(index, orderNumber, step.first(), step.second(), false);
      Http.Answer reused = reuse(id, "/v1/orders", key, Workload.orderBody(account, other));
      w.placed.add(
          new OrderIntent(
              id + "-reuse",
              account,
              orderNumber,
              other,
              false,
              reused == null ? null : reused.status(),
              null));
    }
  }

  /** Pays a reserved order, or cancels a placed, reserved or paid one, as the shop shows it. */
  private void payOrCancel(Step step) throws InterruptedException {
    if (orders.isEmpty()) {
      return;
    }
    boolean pay = step.action() == Schedule.Action.PAY;
    // one of the 4 latest orders: older ones are mostly settled (rejected, paid, cancelled)
    String orderId = orders.get(orders.size() - 1 - step.target() % Math.min(4, orders.size()));
    Http.Answer o = w.sendUntilAnswer(apiKey, "/v1/orders/" + orderId, null, null);
    if (o == null || o.status() != 200) {
      return;
    }
    String status = Http.field(o.body(), "status");
    if (pay
        ? !"reserved".equals(status)
        : !List.of("placed", "reserved", "paid").contains(status)) {
      return;
    }
    String id = nextId();
    String path = "/v1/orders/" + orderId + (pay ? "/pay" : "/cancel");
    Http.Answer first = send(id, path, "chaos-" + w.seed + "-" + id, "{}", step);
    String answered = null;
    if (first != null && first.status() == (pay ? 201 : 200)) {
      answered = Http.field(first.body(), pay ? "id" : "status");
    }
    w.orderActions.add(
        new OrderAction(id, pay, orderId, first == null ? null : first.status(), answered));
  }

  private void restock(Step step) throws InterruptedException {
    String sku = Workload.sku(index, step.target() % 2 == 0 ? "A" : "B");
    String id = nextId();
    Http.Answer first =
        send(
            id,
            "/v1/products/" + sku + "/restock",
            "chaos-" + w.seed + "-" + id,
            "{\"quantity\":" + step.first() + "}",
            step);
    w.restocks.add(new RestockRecord(id, sku, step.first(), first == null ? null : first.status()));
  }

  /**
   * Sends intent {@code id}'s key again with another body and records the answer for the key-reuse
   * check; the answer, or null if the run ended first.
   */
  private Http.Answer reuse(String id, String path, String key, String otherBody)
      throws InterruptedException {
    Http.Answer reused = w.sendUntilAnswer(apiKey, path, key, otherBody);
    if (reused != null) {
      w.reuses.add(new ReuseRecord(id, reused.status(), reused.slug()));
    }
    return reused;
  }

  private String nextId() {
    return "c" + index + "-" + (++intentCount);
  }

  /**
   * Sends one intent until it gets an answer, from a second thread at once too if the step says so,
   * and again {@code step.replays()} times after its first answer; records the comparisons and
   * counts the acknowledgement or the time-out. The first answer, or null if none came.
   */
  private Http.Answer send(String id, String path, String key, String body, Step step)
      throws InterruptedException {
    AtomicReference<Http.Answer> duplicate = new AtomicReference<>();
    Thread twin = null;
    if (step.duplicate()) {
      twin =
          new Thread(
              () -> {
                try {
                  duplicate.set(w.sendUntilAnswer(apiKey, path, key, body));
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "chaos-twin-" + id);
      twin.setDaemon(true);
      twin.start();
    }
    Http.Answer first = w.sendUntilAnswer(apiKey, path, key, body);
    if (twin != null) {
      twin.join();
      Http.Answer other = duplicate.get();
      if (first == null) {
        first = other;
      } else if (other != null) {
        w.replays.add(new ReplayRecord(id, other.sameAs(first), describe(first, other)));
      }
    }
    if (first == null) {
      w.counters.timeouts.incrementAndGet();
      return null;
    }
    w.counters.acks.incrementAndGet();
    for (int r = 0; r < step.replays(); r++) {
      Http.Answer again = w.sendUntilAnswer(apiKey, path, key, body);
      if (again == null) {
        break;
      }
      w.replays.add(new ReplayRecord(id, again.sameAs(first), describe(first, again)));
    }
    return first;
  }

  private static String describe(Http.Answer first, Http.Answer later) {
    if (later.sameAs(first)) {
      return "equal";
    }
    return "first "
        + first.status()
        + " "
        + abbreviate(first.body())
        + ", later "
        + later.status()
        + " "
        + abbreviate(later.body());
  }

  private static String abbreviate(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
