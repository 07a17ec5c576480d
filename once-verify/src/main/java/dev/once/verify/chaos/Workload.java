package dev.once.verify.chaos;

import dev.once.verify.chaos.Amounts.Kind;
import dev.once.verify.chaos.Observations.IntentRecord;
import dev.once.verify.chaos.Observations.ReplayRecord;
import dev.once.verify.chaos.Observations.ReuseRecord;
import dev.once.verify.chaos.Schedule.Step;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The virtual clients: each has its own API client and accounts and loops over its seeded steps
 * until the deadline. An intent is retried with the same key and body until it gets an answer
 * (anything but a 5xx or a 409 idempotency-key-in-use) or the run ends (then it timed out).
 */
final class Workload {
  /** Counters for the progress lines and the report. */
  static final class Counters {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong acks = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();
    final AtomicLong connectionErrors = new AtomicLong();
    final AtomicLong inUse = new AtomicLong();
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
                "{\"currency\":\"EUR\"}");
        if (acc.status() != 201) {
          throw new IOException("could not create an account: " + acc.status() + " " + acc.body());
        }
        String id = Http.field(acc.body(), "id");
        own.add(id);
        accounts.add(id);
        owners.put(id, apiKey);
      }
      clients.add(new Client(c, apiKey, own, new Schedule.ClientPlan(seed, c, accountsPerClient)));
    }
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
   * idempotency-key-in-use. Null if the run ended first.
   */
  Http.Answer sendUntilAnswer(String apiKey, String path, String key, String body)
      throws InterruptedException {
    long began = System.nanoTime();
    while (!over()) {
      counters.requests.incrementAndGet();
      Http.Answer a;
      try {
        a = key == null ? http.get(path, apiKey) : http.post(path, apiKey, key, body);
      } catch (IOException e) {
        counters.connectionErrors.incrementAndGet();
        Thread.sleep(250); // the shop is down or restarting
        continue;
      }
      if (a.status() == 409 && "idempotency-key-in-use".equals(a.slug())) {
        counters.inUse.incrementAndGet();
        Thread.sleep(Math.min(1_000L, Math.max(100L, a.retryAfterSeconds() * 1_000L)));
        continue;
      }
      if (a.status() >= 500) {
        if (counters.serverErrors.incrementAndGet() <= 10) {
          counters.serverErrorSamples.add(
              java.time.Instant.now() + " " + path + " -> " + a.status() + " " + a.body());
        }
        Thread.sleep(250);
        continue;
      }
      counters.longestWaitMillis.accumulateAndGet(
          (System.nanoTime() - began) / 1_000_000, Math::max);
      return a;
    }
    return null;
  }

  private final class Client implements Runnable {
    final int index;
    final String apiKey;
    final List<String> accountIds;
    final Schedule.ClientPlan plan;
    final Map<String, long[]> numbers = new HashMap<>();
    final Map<String, List<String>> payments = new HashMap<>();
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
      String id = "c" + index + "-" + (++intentCount);
      long number = nextNumber(account, kind);
      String body = body(kind, account, number);
      String key = "chaos-" + seed + "-" + id;

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
      intents.add(
          new IntentRecord(id, account, kind, number, first == null ? null : first.status()));
      if (first == null) {
        counters.timeouts.incrementAndGet();
        return;
      }
      counters.acks.incrementAndGet();
      if (kind == Kind.PAYMENT && first.status() == 201) {
        payments
            .computeIfAbsent(account, a -> new ArrayList<>())
            .add(Http.field(first.body(), "id"));
      }
      for (int r = 0; r < step.replays(); r++) {
        Http.Answer again = sendUntilAnswer(apiKey, path, key, body);
        if (again == null) {
          break;
        }
        replays.add(new ReplayRecord(id, again.sameAs(first), describe(first, again)));
      }
      if (step.reuse()) {
        long other = nextNumber(account, kind);
        Http.Answer reused = sendUntilAnswer(apiKey, path, key, body(kind, account, other));
        intents.add(
            new IntentRecord(
                id + "-reuse", account, kind, other, reused == null ? null : reused.status()));
        if (reused != null) {
          reuses.add(new ReuseRecord(id, reused.status(), reused.slug()));
        }
      }
    }
  }

  static String body(Kind kind, String account, long number) {
    String amount = Amounts.amount(kind, number);
    return kind == Kind.PAYMENT
        ? "{\"accountId\":\"" + account + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}"
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
