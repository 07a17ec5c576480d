package dev.once.verify.harness;

import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.HttpResponse;
import dev.once.verify.http.RequestBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop HTTP load on the shop process: {@code connections} platform threads, each on its
 * own keep-alive {@link HttpConnection}, each sending its next {@code POST} as soon as the last was
 * answered, with a fresh {@code Idempotency-Key}; or, {@link #pacedOrders paced}, the same threads
 * sending at a fixed rate (each takes the next free slot of one schedule and waits for it). It
 * counts 201s, 503s (after which a thread waits the {@code Retry-After}, at most 1 s, as a polite
 * client would), any other status, and transport errors; {@link #counts()} may be read at any time,
 * so one load can be cut into windows ({@link #window}).
 */
public final class BackgroundLoad implements AutoCloseable {
  /** What the load's answers were, so far or in a window. */
  public record Counts(long created, long shed, long other, long errors) {
    public Counts minus(Counts earlier) {
      long[] now = {created, shed, other, errors};
      long[] then = {earlier.created, earlier.shed, earlier.other, earlier.errors};
      for (int i = 0; i < now.length; i++) {
        now[i] -= then[i];
      }
      return new Counts(now[0], now[1], now[2], now[3]);
    }
  }

  /** One measured window of the load: its answers, its length, and when it began and ended. */
  public record Window(Counts counts, double seconds, Instant start, Instant end) {
    /** 201s per second. */
    public double rate() {
      return counts.created() / seconds;
    }
  }

  /** Appends the {@code Content-Length}, the blank line and one body. */
  private interface Body {
    void write(RequestBytes out, SplittableRandom random);
  }

  private static final int CREATED = 0;
  private static final int SHED = 1;
  private static final int OTHER = 2;
  private static final int ERRORS = 3;

  /** One counter per kind of answer: 201, 503, another status, no answer. */
  private final LongAdder[] answers = {
    new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()
  };

  private final Thread[] threads;
  private final long periodNanos;
  private final AtomicLong nextSlot = new AtomicLong(System.nanoTime());
  private volatile boolean stop;

  /**
   * @param periodNanos the schedule's period, 0 for a closed loop
   */
  private BackgroundLoad(
      int port, String path, String apiKey, int connections, long periodNanos, Body body) {
    this.periodNanos = periodNanos;
    threads = new Thread[connections];
    for (int c = 0; c < connections; c++) {
      long seed = c;
      threads[c] = new Thread(() -> loop(port, path, apiKey, body, seed), "relay-load-" + c);
      threads[c].setDaemon(true);
      threads[c].start();
    }
  }

  /** New payments of 1.00 EUR on accounts drawn at random. */
  public static BackgroundLoad payments(
      int port, String apiKey, int connections, List<String> accounts) {
    byte[][] bodies = new byte[accounts.size()][];
    for (int i = 0; i < bodies.length; i++) {
      bodies[i] =
          ("{\"accountId\":\"" + accounts.get(i) + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}")
              .getBytes(StandardCharsets.UTF_8);
    }
    return new BackgroundLoad(
        port,
        "/v1/payments",
        apiKey,
        connections,
        0,
        (out, random) -> out.body(bodies[random.nextInt(bodies.length)]));
  }

  /** Orders as the bench command's orders scenario writes them ({@link OrderBodies}). */
  public static BackgroundLoad orders(
      int port, String apiKey, int connections, List<String> accounts, List<String> skus) {
    return orders(port, apiKey, connections, 0, accounts, skus);
  }

  /**
   * Orders as {@link #orders}, {@code perSecond} of them, from 4 threads: an open load at a low
   * rate (a slow answer delays a thread, not the schedule, while another thread is free).
   */
  public static BackgroundLoad pacedOrders(
      int port, String apiKey, int perSecond, List<String> accounts, List<String> skus) {
    return orders(port, apiKey, 4, 1_000_000_000L / perSecond, accounts, skus);
  }

  private static BackgroundLoad orders(
      int port,
      String apiKey,
      int connections,
      long periodNanos,
      List<String> accounts,
      List<String> skus) {
    OrderBodies bodies = new OrderBodies(accounts, skus);
    return new BackgroundLoad(
        port,
        "/v1/orders",
        apiKey,
        connections,
        periodNanos,
        (out, random) -> bodies.write(out, random.nextInt(accounts.size()), random));
  }

  /** Waits {@code warmupMillis}, then measures {@code windowMillis} of the load. */
  public Window window(long warmupMillis, long windowMillis) throws InterruptedException {
    Thread.sleep(warmupMillis);
    Counts before = counts();
    Instant start = Instant.now();
    long t0 = System.nanoTime();
    Thread.sleep(windowMillis);
    Counts counts = counts().minus(before);
    double seconds = (System.nanoTime() - t0) / 1e9;
    return new Window(counts, seconds, start, Instant.now());
  }

  public Counts counts() {
    return new Counts(
        answers[CREATED].sum(), answers[SHED].sum(), answers[OTHER].sum(), answers[ERRORS].sum());
  }

  private void loop(int port, String path, String apiKey, Body body, long seed) {
    SplittableRandom random = new SplittableRandom(System.nanoTime() ^ (seed << 32));
    byte[] head =
        HttpRequest.head(
            "POST",
            path,
            "localhost:" + port,
            "Authorization: Bearer " + apiKey,
            "Content-Type: application/json");
    RequestBytes request = new RequestBytes();
    try (HttpConnection http = new HttpConnection("localhost", port, 30_000)) {
      while (!stop && awaitSlot()) {
        request.reset().append(head);
        request.appendAscii("Idempotency-Key: ").appendAscii(UUID.randomUUID().toString()).crlf();
        body.write(request, random);
        send(http, request);
      }
    }
  }

  private void send(HttpConnection http, RequestBytes request) {
    HttpResponse response;
    try {
      response = http.exchange(request);
    } catch (IOException e) {
      answers[ERRORS].increment();
      return;
    }
    int status = response.status();
    answers[status == 201 ? CREATED : status == 503 ? SHED : OTHER].increment();
    if (status == 503) {
      try {
        Thread.sleep(retryAfterMillis(response.header("Retry-After")));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop = true;
      }
    }
  }

  /** Paced: takes the next slot of the schedule and sleeps until it; false once stopped. */
  private boolean awaitSlot() {
    if (periodNanos == 0) {
      return true;
    }
    long wait = nextSlot.getAndAdd(periodNanos) - System.nanoTime();
    if (wait > 0) {
      try {
        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop = true;
      }
    }
    return !stop;
  }

  /** The wait a 503 asks for, at most 1 s; an HTTP date waits the most. */
  public static long retryAfterMillis(String retryAfter) {
    if (retryAfter == null) {
      return 0;
    }
    try {
      return Math.min(1000, Math.max(0, Long.parseLong(retryAfter.strip()) * 1000));
    } catch (NumberFormatException e) {
      return 1000;
    }
  }

  /** Stops every thread after its request in flight, and waits for them (a minute at most). */
  @Override
  public void close() throws InterruptedException {
    stop = true;
    long deadline = System.nanoTime() + 60_000_000_000L;
    for (Thread thread : threads) {
      thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
  }
}
