package dev.once.shop.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A closed-loop HTTP load: {@code connections} threads, each sending one {@code POST} after the
 * other with a fresh {@code Idempotency-Key}, through one {@link HttpClient} (HTTP/1.1, keep-alive)
 * in this JVM; or, {@link #pacedOrders paced}, the same threads sending at a fixed rate (each takes
 * the next free slot of the schedule and waits for it). Counts the answers by kind: the expected
 * 201, 503 (load shedding; the thread then waits the {@code Retry-After}, at most 1 s, as a polite
 * client would), any other status, and transport errors. {@link #counts()} may be read at any time,
 * so one load can be cut into windows.
 */
final class HttpLoad implements AutoCloseable {
  private final AtomicBoolean stop = new AtomicBoolean();
  private final LongAdder created = new LongAdder();
  private final LongAdder shed = new LongAdder();
  private final LongAdder other = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong nextSlot = new AtomicLong(System.nanoTime());
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** What the counters said at one moment. */
  record Counts(long created, long shed, long other, long errors) {
    Counts minus(Counts before) {
      return new Counts(
          created - before.created,
          shed - before.shed,
          other - before.other,
          errors - before.errors);
    }
  }

  private HttpLoad(
      String base,
      String path,
      String apiKey,
      int connections,
      long periodNanos,
      Function<ThreadLocalRandom, String> body) {
    URI uri = URI.create(base + path);
    for (int c = 0; c < connections; c++) {
      Thread thread =
          new Thread(
              () -> {
                while (!stop.get()) {
                  if (periodNanos > 0 && !awaitSlot(periodNanos)) {
                    return;
                  }
                  send(uri, apiKey, body.apply(ThreadLocalRandom.current()));
                }
              },
              "bench-load-" + c);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  /** New payments of 1.00 EUR on accounts drawn at random. */
  static HttpLoad payments(String base, String apiKey, int connections, List<String> accounts) {
    return new HttpLoad(
        base,
        "/v1/payments",
        apiKey,
        connections,
        0,
        random ->
            "{\"accountId\":\""
                + accounts.get(random.nextInt(accounts.size()))
                + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}");
  }

  /**
   * Orders as in once-verify's {@code orders} scenario: 1 to 3 distinct SKUs drawn from {@code
   * skus} in the order drawn (not sorted), 1 to 3 units each.
   */
  static HttpLoad orders(
      String base, String apiKey, int connections, List<String> accounts, List<String> skus) {
    return new HttpLoad(
        base, "/v1/orders", apiKey, connections, 0, random -> order(random, accounts, skus));
  }

  /**
   * Orders as {@link #orders}, {@code perSecond} of them, from 4 threads: an open load at a low
   * rate (a slow answer delays a thread, not the schedule, while another thread is free).
   */
  static HttpLoad pacedOrders(
      String base, String apiKey, double perSecond, List<String> accounts, List<String> skus) {
    return new HttpLoad(
        base,
        "/v1/orders",
        apiKey,
        4,
        (long) (1e9 / perSecond),
        random -> order(random, accounts, skus));
  }

  private static String order(ThreadLocalRandom random, List<String> accounts, List<String> skus) {
    StringBuilder body =
        new StringBuilder("{\"accountId\":\"")
            .append(accounts.get(random.nextInt(accounts.size())))
            .append("\",\"items\":[");
    int count = 1 + random.nextInt(3);
    List<Integer> drawn = new ArrayList<>(3);
    while (drawn.size() < count) {
      int sku = random.nextInt(skus.size());
      if (!drawn.contains(sku)) {
        drawn.add(sku);
      }
    }
    for (int i = 0; i < drawn.size(); i++) {
      body.append(i == 0 ? "" : ",")
          .append("{\"sku\":\"")
          .append(skus.get(drawn.get(i)))
          .append("\",\"quantity\":")
          .append(1 + random.nextInt(3))
          .append('}');
    }
    return body.append("]}").toString();
  }

  /** Takes the next slot of the schedule and sleeps until it; false once stopped. */
  private boolean awaitSlot(long periodNanos) {
    long slot = nextSlot.getAndAdd(periodNanos);
    long wait = slot - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.set(true);
      }
    }
    return !stop.get();
  }

  Counts counts() {
    return new Counts(created.sum(), shed.sum(), other.sum(), errors.sum());
  }

  private void send(URI uri, String apiKey, String body) {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + apiKey)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
      int status = response.statusCode();
      if (status == 201) {
        created.increment();
      } else if (status == 503) {
        shed.increment();
        long wait =
            response
                .headers()
                .firstValue("Retry-After")
                .map(HttpLoad::seconds)
                .orElse(0L)
                .longValue();
        Thread.sleep(Math.min(1000, Math.max(0, wait * 1000)));
      } else {
        other.increment();
      }
    } catch (IOException e) {
      errors.increment();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.set(true);
    }
  }

  private static Long seconds(String retryAfter) {
    try {
      return Long.parseLong(retryAfter.strip());
    } catch (NumberFormatException e) {
      return 1L; // an HTTP date: wait the most this client waits
    }
  }

  /** Stops every thread after its request in flight, and waits for them. */
  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(60_000);
    }
  }
}
