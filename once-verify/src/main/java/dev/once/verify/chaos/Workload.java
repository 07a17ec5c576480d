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

  private final Http http;
  final long seed;
  private final int accountsPerClient;
  final Counters counters;
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

  /**
   * When each intent (and order intent) got its first answer, by id ({@link System#nanoTime()}).
   */
  final Map<String, Long> answeredAt = new java.util.concurrent.ConcurrentHashMap<>();

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
      clients.add(
          new Client(this, c, apiKey, own, new Schedule.ClientPlan(seed, c, accountsPerClient)));
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

  boolean over() {
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

  /** When the calling thread's current attempt started. */
  private static final ThreadLocal<Long> attemptStart = ThreadLocal.withInitial(System::nanoTime);

  /** Counts each attempt of the workload's calls for the progress lines and the report. */
  private final ClientListener listener =
      new ClientListener() {
        @Override
        public void attemptStarted(Call call, int attempt) {
          counters.requests.incrementAndGet();
          attemptStart.set(System.nanoTime()); // the retrier runs each attempt on this thread
        }

        @Override
        public void attemptEnded(Call call, int attempt, Outcome outcome) {
          counters.attempt(attemptStart.get(), outcome.answered() ? outcome.status() : 0);
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
            if (outcome.status() != 503) {
              counters.serverErrorsNot503.incrementAndGet();
            }
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
}
