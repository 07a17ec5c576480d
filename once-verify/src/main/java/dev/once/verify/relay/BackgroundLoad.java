package dev.once.verify.relay;

import dev.once.verify.bench.OrderBodies;
import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.HttpResponse;
import dev.once.verify.http.RequestBytes;
import java.io.IOException;
import java.util.ArrayList;
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
    Counts minus(Counts before) {
      return new Counts(
          created - before.created,
          shed - before.shed,
          other - before.other,
          errors - before.errors);
    }
  }

  /** Appends the {@code Content-Length}, the blank line and one body. */
  private interface Body {
    void write(RequestBytes out, SplittableRandom random);
  }

  private final LongAdder created = new LongAdder();
  private final LongAdder shed = new LongAdder();
  private final LongAdder other = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stop;

  private BackgroundLoad(int port, String path, String apiKey, int connections, Body body) {
    for (int c = 0; c < connections; c++) {
      long seed = c;
      Thread thread = new Thread(() -> loop(port, path, apiKey, body, seed), "relay-load-" + c);
      thread.setDaemon(true);
      threads.add(thread);
    }
    threads.forEach(Thread::start);
  }

  /** New payments of 1.00 EUR on accounts drawn at random. */
  static BackgroundLoad payments(int port, String apiKey, int connections, List<String> accounts) {
    return new BackgroundLoad(
        port,
        "/v1/payments",
        apiKey,
        connections,
        (out, random) -> {
          String body =
              "{\"accountId\":\""
                  + accounts.get(random.nextInt(accounts.size()))
                  + "\",\"amount\":\"1.00\",\"currency\":\"EUR\"}";
          out.appendAscii("Content-Length: ").appendDecimal(body.length()).crlf().crlf();
          out.appendAscii(body);
        });
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
    return new Counts(created.sum(), shed.sum(), other.sum(), errors.sum());
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
    try {
      HttpResponse response = http.exchange(request);
      int status = response.status();
      if (status == 201) {
        created.increment();
      } else if (status == 503) {
        shed.increment();
        Thread.sleep(retryAfterMillis(response.header("Retry-After")));
      } else {
        other.increment();
      }
    } catch (IOException e) {
      errors.increment();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop = true;
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

  /** Stops every thread after its request in flight, and waits for them. */
  @Override
  public void close() throws InterruptedException {
    stop = true;
    for (Thread thread : threads) {
      thread.join(60_000);
    }
  }
}
