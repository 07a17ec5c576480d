package dev.once.verify.chaos;

import dev.once.client.CallInterruptedException;
import dev.once.client.CallRetryPolicy;
import dev.once.client.ClientListener;
import dev.once.client.GaveUpException;
import dev.once.client.IdempotencyKeyReusedException;
import dev.once.client.Retrier;
import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.OrderAction;
import dev.once.verify.chaos.Observations.OrderIntent;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.RestockRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import dev.once.verify.chaos.Schedule.Step;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

/**
 * The virtual clients: each has its own API client and accounts and loops over its seeded steps
 * until the deadline. An intent is retried with the same key and body until it gets an answer
 * (anything but a 5xx or a 409 idempotency-key-in-use) or the run ends (then it timed out).
 *
 * <p>Each client also has four products: two limited ones, {@code C<client>-A} (2.00, 12 units) and
 * {@code C<client>-B} (3.00, 8 units), which run short so that orders get rejected, cancels give
 * units back and restocks add some; and two unlimited ones priced 0.0001 that make orders
 * countable. Order intent {@code n} of a client holds {@code n} units of its tag product {@code
 * C<client>-TAG}: the shop's orders show each intent at most once, found by account and tag units,
 * as {@link Amounts} does for money. The tag adds n/10000 to the total, whose integer part (at
 * least 2: every order holds a limited product) keeps it apart from every payment and refund
 * intent's amount. An order meant to be declined also holds {@code 5100 - n} units of {@code
 * C<client>-DECL}, so that its total ends in exactly .5100, which psp-simulator declines.
 */
final class Workload {
  /**
   * The currency of every account and product: CLF (Unidad de Fomento), whose ISO 4217 minor units
   * are 4, so that the shop accepts the four fraction digits that {@link Amounts} counts intents by
   * (in EUR, with 2, it refuses them with 422 invalid-amount).
   */
  static final String CURRENCY = "CLF";

  /** Counters for the progress lines and the report. */
  static final class Counters {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong acks = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();
    final AtomicLong connectionErrors = new AtomicLong();
    final AtomicLong inUse = new AtomicLong();
    final AtomicLong limited = new AtomicLong();
    final AtomicLong serverErrors = new AtomicLong();
    final AtomicLong kills = new AtomicLong();

    /** The longest time an intent waited for its answer (retries through kills and 409s). */
    final AtomicLong longestWaitMillis = new AtomicLong();

    /** The first few 5xx answers, for the report: a 5xx is retried, but may be a shop bug. */
    final List<String> serverErrorSamples = Collections.synchronizedList(new ArrayList<>());
  }

  private final Http http;
  private final long seed;
  private final int accountsPerClient;
  private final Counters counters;
  private volatile long deadlineNanos;
  final List<IntentRecord> intents = Collections.synchronizedList(new ArrayList<>());
  final List<ReplayRecord> replays = Collections.synchronizedList(new ArrayList<>());
  final List<ReuseRecord> reuses = Collections.synchronizedList(new ArrayList<>());
  final List<OrderIntent> placed = Collections.synchronizedList(new ArrayList<>());
  final List<OrderAction> orderActions = Collections.synchronizedList(new ArrayList<>());
  final List<RestockRecord> restocks = Collections.synchronizedList(new ArrayList<>());

  /** sku -> the units it was created with, for the limited products. */
  final Map<String, Long> initialStock = Collections.synchronizedMap(new TreeMap<>());

  /** sku -> API key of its client. */
  final Map<String, String> productOwners = Collections.synchronizedMap(new TreeMap<>());

  final List<String> accounts = Collections.synchronizedList(new ArrayList<>());

  /** account id -> API key of its client. */
  final Map<String, String> owners = Collections.synchronizedMap(new HashMap<>());

  private final List<Client> clients = new ArrayList<>();

  Workload(Http http, long seed, int accountsPerClient, Counters counters) {
    this.http = http;
    this.seed = seed;
    this.accountsPerClient = accountsPerClient;
    this.counters = counters;
    this.deadlineNanos = Long.MAX_VALUE;
  }

  /** Creates the API clients and their accounts (before any fault). */
  void setUp(int clientCount, String adminToken) throws IOException, InterruptedException {
    for (int c = 0; c < clientCount; c++) {
      Http.Answer r =
          http.post("/admin/v1/clients", adminToken, null, "{\"name\":\"chaos-" + c + "\"}");
      if (r.status() != 201) {
        throw new IOException("could not create an API client: " + r.status() + " " + r.body());
      }
      String apiKey = Http.field(r.body(), "apiKey");
      List<String> own = new ArrayList<>();
      for (int a = 0; a < accountsPerClient; a++) {
        Http.Answer acc =
            http.post(
                "/v1/accounts",
                apiKey,
                "chaos-" + seed + "-setup-" + c + "-" + a,
                "{\"currency\":\"" + CURRENCY + "\"}");
        if (acc.status() != 201) {
          throw new IOException("could not create an account: " + acc.status() + " " + acc.body());
        }
        String id = Http.field(acc.body(), "id");
        own.add(id);
        accounts.add(id);
        owners.put(id, apiKey);
      }
      for (Map.Entry<String, String[]> p : PRODUCTS.entrySet()) {
        String sku = sku(c, p.getKey());
        String body =
            "{\"sku\":\""
                + sku
                + "\",\"name\":\"chaos "
                + sku
                + "\",\"price\":\""
                + p.getValue()[0]
                + "\",\"currency\":\""
                + CURRENCY
                + "\",\"stock\":"
                + p.getValue()[1]
                + "}";
        Http.Answer made = http.post("/v1/products", apiKey, "chaos-" + seed + "-" + sku, body);
        if (made.status() != 201) {
          throw new IOException("could not create a product: " + made.status() + " " + made.body());
        }
        initialStock.put(sku, Long.parseLong(p.getValue()[1]));
        productOwners.put(sku, apiKey);
      }
      clients.add(new Client(c, apiKey, own, new Schedule.ClientPlan(seed, c, accountsPerClient)));
    }
  }

  /** Product suffix -> {price, initial stock}: two limited products, the tag and the decline. */
  static final Map<String, String[]> PRODUCTS = new LinkedHashMap<>();

  static {
    PRODUCTS.put("A", new String[] {"2.00", "12"});
    PRODUCTS.put("B", new String[] {"3.00", "8"});
    PRODUCTS.put("TAG", new String[] {"0.0001", "1000000000"});
    PRODUCTS.put("DECL", new String[] {"0.0001", "1000000000"});
  }

  static String sku(int client, String suffix) {
    return "C" + client + "-" + suffix;
  }

  /** The intent number an order's items encode: its tag product's units, or -1. */
  static long tagUnits(Map<String, Long> items) {
    for (Map.Entry<String, Long> e : items.entrySet()) {
      if (e.getKey().endsWith("-TAG")) {
        return e.getValue();
      }
    }
    return -1;
  }

  /** The items of client {@code client}'s order intent {@code n}, sorted by sku. */
  static Map<String, Long> orderItems(int client, long n, int first, int second, boolean decline) {
    Map<String, Long> items = new TreeMap<>();
    if (first > 0) {
      items.put(sku(client, "A"), (long) first);
    }
    if (second > 0) {
      items.put(sku(client, "B"), (long) second);
    }
    items.put(sku(client, "TAG"), n);
    if (decline) {
      items.put(sku(client, "DECL"), 5_100 - n);
    }
    return items;
  }

  static String orderBody(String account, Map<String, Long> items) {
    StringBuilder b = new StringBuilder("{\"accountId\":\"" + account + "\",\"items\":[");
    String sep = "";
    for (Map.Entry<String, Long> e : items.entrySet()) {
      b.append(sep)
          .append("{\"sku\":\"")
          .append(e.getKey())
          .append("\",\"quantity\":")
          .append(e.getValue())
          .append('}');
      sep = ",";
    }
    return b.append("]}").toString();
  }

  /** Runs every client until {@code deadlineNanos} (System.nanoTime) and waits for them. */
  void run(long deadlineNanos) throws InterruptedException {
    this.deadlineNanos = deadlineNanos;
    List<Thread> threads = new ArrayList<>();
    for (Client c : clients) {
      Thread t = new Thread(c, "chaos-client-" + c.index);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  private boolean over() {
    return System.nanoTime() >= deadlineNanos;
  }

  /**
   * Sends until an answer: not a connection error or time-out, not a 5xx, not a 409
   * idempotency-key-in-use, not a 429 of the shop's per-client caps. Null if the run ended first.
   * The call goes through once-client's {@link Retrier} with the run's deadline as its own: the
   * same key on every attempt, full-jitter backoff (100 ms doubling to 1 s) or the shop's {@code
   * Retry-After}, and {@link #listener} counts the attempts. A key reused with another body is the
   * 422 {@code idempotency-key-reused} it was (once-client throws it as an exception).
   */
  Http.Answer sendUntilAnswer(String apiKey, String path, String key, String body)
      throws InterruptedException {
    long began = System.nanoTime();
    long left = deadlineNanos - began;
    if (left <= 0) {
      return null;
    }
    Retrier retrier =
        Retrier.builder()
            .policy(
                CallRetryPolicy.builder()
                    .initialDelay(Duration.ofMillis(100))
                    .maxDelay(Duration.ofSeconds(1))
                    .maxAttempts(Integer.MAX_VALUE)
                    .attemptTimeout(http.timeout())
                    .deadline(Duration.ofNanos(left))
                    .build())
            .listener(listener)
            .random(RANDOM)
            .build();
    Http.Answer a;
    try {
      a = http.call(retrier, path, apiKey, key, body, answer -> sample(path, answer));
    } catch (GaveUpException e) {
      return null; // the run ended first
    } catch (IdempotencyKeyReusedException e) {
      a = new Http.Answer(422, REUSED, false, 0);
    } catch (CallInterruptedException e) {
      Thread.interrupted(); // InterruptedException carries it on instead
      throw new InterruptedException("interrupted");
    }
    counters.longestWaitMillis.accumulateAndGet((System.nanoTime() - began) / 1_000_000, Math::max);
    return a;
  }

  /** The body of a reused key's answer as the workload records it: its problem type. */
  private static final String REUSED =
      "{\"type\":\"https://once.dev/problems/idempotency-key-reused\",\"status\":422}";

  /** The jitter's random source: thread-safe, and not seeded by the run. */
  private static final RandomGenerator RANDOM = () -> ThreadLocalRandom.current().nextLong();

  /** Counts each attempt of the workload's calls for the progress lines and the report. */
  private final ClientListener listener =
      new ClientListener() {
        @Override
        public void attemptStarted(Call call, int attempt) {
          counters.requests.incrementAndGet();
        }

        @Override
        public void attemptEnded(Call call, int attempt, Outcome outcome) {
          if (!outcome.answered()) {
            counters.connectionErrors.incrementAndGet(); // the shop is down or restarting
          } else if (outcome.status() == 409
              && outcome.problemType() != null
              && outcome.problemType().endsWith("/idempotency-key-in-use")) {
            counters.inUse.incrementAndGet();
          } else if (outcome.status() == 429) {
            // A per-client cap of the shop (once.idempotency.limits): nothing was executed and
            // the key is free; once-client waits as told and sends the same request again.
            counters.limited.incrementAndGet();
          } else if (outcome.status() >= 500) {
            counters.serverErrors.incrementAndGet();
          }
        }
      };

  /** Keeps the first few 5xx answers, with their bodies, for the report. */
  private void sample(String path, Http.Answer a) {
    if (a.status() < 500) {
      return;
    }
    synchronized (counters.serverErrorSamples) {
      if (counters.serverErrorSamples.size() < 10) {
        counters.serverErrorSamples.add(
            java.time.Instant.now() + " " + path + " -> " + a.status() + " " + a.body());
      }
    }
  }

  private final class Client implements Runnable {
    final int index;
    final String apiKey;
    final List<String> accountIds;
    final Schedule.ClientPlan plan;
    final Map<String, long[]> numbers = new HashMap<>();
    final Map<String, List<String>> payments = new HashMap<>();
    final List<String> orders = new ArrayList<>();
    long orderNumber;
    int intentCount;

    Client(int index, String apiKey, List<String> accountIds, Schedule.ClientPlan plan) {
      this.index = index;
      this.apiKey = apiKey;
      this.accountIds = accountIds;
      this.plan = plan;
    }

    @Override
    public void run() {
      try {
        while (!over()) {
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
          Http.Answer p = sendUntilAnswer(apiKey, "/v1/payments/" + payment, null, null);
          if (p == null
              || p.status() != 200
              || !"succeeded".equals(Http.field(p.body(), "status"))) {
            return;
          }
          kind = Kind.REFUND;
          path = "/v1/payments/" + payment + "/refunds";
        }
      }
      String id = nextId();
      long number = nextNumber(account, kind);
      String key = "chaos-" + seed + "-" + id;
      Http.Answer first = send(id, path, key, body(kind, account, number), step);
      intents.add(
          new IntentRecord(id, account, kind, number, first == null ? null : first.status()));
      if (first == null) {
        return;
      }
      if (kind == Kind.PAYMENT && first.status() == 201) {
        payments
            .computeIfAbsent(account, a -> new ArrayList<>())
            .add(Http.field(first.body(), "id"));
      }
      if (step.reuse()) {
        long other = nextNumber(account, kind);
        Http.Answer reused = reuse(id, path, key, body(kind, account, other));
        intents.add(
            new IntentRecord(
                id + "-reuse", account, kind, other, reused == null ? null : reused.status()));
      }
    }

    private void order(Step step) throws InterruptedException {
      String account = accountIds.get(step.account());
      String id = nextId();
      String key = "chaos-" + seed + "-" + id;
      orderNumber = Amounts.next(orderNumber);
      long n = orderNumber;
      boolean decline = step.decline() && n < 5_000;
      Map<String, Long> items = orderItems(index, n, step.first(), step.second(), decline);
      Http.Answer first = send(id, "/v1/orders", key, orderBody(account, items), step);
      String orderId =
          first != null && first.status() == 201 ? Http.field(first.body(), "id") : null;
      placed.add(
          new OrderIntent(
              id, account, n, items, decline, first == null ? null : first.status(), orderId));
      if (orderId != null) {
        orders.add(orderId);
      }
      if (first != null && step.reuse()) {
        orderNumber = Amounts.next(orderNumber);
        Map<String, Long> other =
            orderItems(index, orderNumber, step.first(), step.second(), false);
        Http.Answer reused = reuse(id, "/v1/orders", key, orderBody(account, other));
        placed.add(
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
      Http.Answer o = sendUntilAnswer(apiKey, "/v1/orders/" + orderId, null, null);
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
      Http.Answer first = send(id, path, "chaos-" + seed + "-" + id, "{}", step);
      String answered = null;
      if (first != null && first.status() == (pay ? 201 : 200)) {
        answered = Http.field(first.body(), pay ? "id" : "status");
      }
      orderActions.add(
          new OrderAction(id, pay, orderId, first == null ? null : first.status(), answered));
    }

    private void restock(Step step) throws InterruptedException {
      String sku = sku(index, step.target() % 2 == 0 ? "A" : "B");
      String id = nextId();
      Http.Answer first =
          send(
              id,
              "/v1/products/" + sku + "/restock",
              "chaos-" + seed + "-" + id,
              "{\"quantity\":" + step.first() + "}",
              step);
      restocks.add(new RestockRecord(id, sku, step.first(), first == null ? null : first.status()));
    }

    /**
     * Sends intent {@code id}'s key again with another body and records the answer for the
     * key-reuse check; the answer, or null if the run ended first.
     */
    private Http.Answer reuse(String id, String path, String key, String otherBody)
        throws InterruptedException {
      Http.Answer reused = sendUntilAnswer(apiKey, path, key, otherBody);
      if (reused != null) {
        reuses.add(new ReuseRecord(id, reused.status(), reused.slug()));
      }
      return reused;
    }

    private String nextId() {
      return "c" + index + "-" + (++intentCount);
    }

    /**
     * Sends one intent until it gets an answer, from a second thread at once too if the step says
     * so, and again {@code step.replays()} times after its first answer; records the comparisons
     * and counts the acknowledgement or the time-out. The first answer, or null if none came.
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
                    duplicate.set(sendUntilAnswer(apiKey, path, key, body));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "chaos-twin-" + id);
        twin.setDaemon(true);
        twin.start();
      }
      Http.Answer first = sendUntilAnswer(apiKey, path, key, body);
      if (twin != null) {
        twin.join();
        Http.Answer other = duplicate.get();
        if (first == null) {
          first = other;
        } else if (other != null) {
          replays.add(new ReplayRecord(id, other.sameAs(first), describe(first, other)));
        }
      }
      if (first == null) {
        counters.timeouts.incrementAndGet();
        return null;
      }
      counters.acks.incrementAndGet();
      for (int r = 0; r < step.replays(); r++) {
        Http.Answer again = sendUntilAnswer(apiKey, path, key, body);
        if (again == null) {
          break;
        }
        replays.add(new ReplayRecord(id, again.sameAs(first), describe(first, again)));
      }
      return first;
    }
  }

  static String body(Kind kind, String account, long number) {
    String amount = Amounts.amount(kind, number);
    return kind == Kind.PAYMENT
        ? "{\"accountId\":\""
            + account
            + "\",\"amount\":\""
            + amount
            + "\",\"currency\":\""
            + CURRENCY
            + "\"}"
        : "{\"amount\":\"" + amount + "\"}";
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
