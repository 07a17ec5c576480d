package dev.once.verify.relay;

import dev.once.verify.harness.OrderBodies;
import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.HttpResponse;
import dev.once.verify.http.RequestBytes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop HTTP load on the shop process: {@code connections} platform threads, each on its
 * own keep-alive {@link HttpConnection}, each sending its next {@code POST} as soon as the last was
 * answered, with a fresh {@code Idempotency-Key}. It counts 201s, 503s (after which a thread waits
 * the {@code Retry-After}, at most 1 s, as a polite client would), any other status, and transport
 * errors; {@link #counts()} may be read at any time, so one load can be cut into windows.
 */
final class BackgroundLoad implements AutoCloseable {
  /** What the load's answers were, so far or in a window. */
  record Counts(long created, long shed, long other, long errors) {
    Counts minus(Counts earlier) {
      long[] now = {created, shed, other, errors};
      long[] then = {earlier.created, earlier.shed, earlier.other, earlier.errors};
      for (int i = 0; i < now.length; i++) {
        now[i] -= then[i];
      }
      return new Counts(now[0], now[1], now[2], now[3]);
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
  private volatile boolean stop;

  private BackgroundLoad(int port, String path, String apiKey, int connections, Body body) {
    threads = new Thread[connections];
    for (int c = 0; c < connections; c++) {
      long seed = c;
      threads[c] = new Thread(() -> loop(port, path, apiKey, body, seed), "relay-load-" + c);
      threads[c].setDaemon(true);
      threads[c].start();
    }
  }

  /** New payments of 1.00 EUR on accounts drawn at random. */
  static BackgroundLoad payments(int port, String apiKey, int connections, List<String> accounts) {
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
        (out, random) -> out.body(bodies[random.nextInt(bodies.length)]));
  }

  /** Orders as the bench command's orders scenario writes them ({@link OrderBodies}). */
  static BackgroundLoad orders(
      int port, String apiKey, int connections, List<String> accounts, List<String> skus) {
    OrderBodies bodies = new OrderBodies(accounts, skus);
    return new BackgroundLoad(
        port,
        "/v1/orders",
        apiKey,
        connections,
        (out, random) -> bodies.write(out, random.nextInt(accounts.size()), random));
  }

  Counts counts() {
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
      while (!stop) {
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

  /** The wait a 503 asks for, at most 1 s; an HTTP date waits the most. */
  static long retryAfterMillis(String retryAfter) {
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
