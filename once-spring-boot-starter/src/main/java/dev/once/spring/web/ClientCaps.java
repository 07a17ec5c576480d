package dev.once.spring.web;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Per-client caps on idempotent requests ({@code once.idempotency.limits.*}), counted in this
 * process before a request's key is claimed, so that a refused request holds no connection, runs
 * nothing and leaves its key free:
 *
 * <ul>
 *   <li><b>requests in flight</b>: at most {@code maxInFlight} admitted requests of one client at
 *       once; one more is refused until one of them ends;
 *   <li><b>new keys per minute</b>: a token bucket of {@code newKeysPerMinute} tokens per client,
 *       refilled evenly over a minute. Admission takes a token; a request that turns out not to
 *       start a new key (a replay, a mismatch, a key in use, a claim the database could not make)
 *       gives it back ({@link Admitted#notNew()}). An empty bucket refuses every request of the
 *       client, replays included, since which key is new is known only from the database.
 * </ul>
 *
 * A cap of 0 is no cap. A client's state is kept only while it has a request in flight or its
 * bucket is not full (and until a sweep finds it so), so memory follows the clients active in about
 * the last minute. Each decision is atomic per client ({@link ConcurrentHashMap#compute});
 * different clients never contend. Thread-safe.
 */
public final class ClientCaps {
  private static final long MILLIS_PER_MINUTE = 60_000;

  /** Admissions between two sweeps of clients that went idle without a request since. */
  static final int SWEEP_EVERY = 4096;

  private final int maxInFlight;
  private final int newKeysPerMinute;
  private final long inFlightRetryAfterSeconds;
  private final Clock clock;
  private final ConcurrentHashMap<String, Allowance> clients = new ConcurrentHashMap<>();
  private final AtomicLong admissions = new AtomicLong();

  /**
   * @param maxInFlight most admitted requests of one client at once; 0 for no cap
   * @param newKeysPerMinute most new keys of one client per minute; 0 for no cap
   * @param inFlightRetryAfter the {@code Retry-After} of a refusal for too many in flight
   * @param clock the time the token buckets refill by
   */
  public ClientCaps(
      int maxInFlight, int newKeysPerMinute, Duration inFlightRetryAfter, Clock clock) {
    if (maxInFlight < 0 || newKeysPerMinute < 0) {
      throw new IllegalArgumentException("caps must be 0 (none) or positive");
    }
    this.maxInFlight = maxInFlight;
    this.newKeysPerMinute = newKeysPerMinute;
    this.inFlightRetryAfterSeconds = Math.max(1, inFlightRetryAfter.toSeconds());
    this.clock = clock;
  }

  /** No caps: every request is admitted. */
  public static ClientCaps none() {
    return new ClientCaps(0, 0, Duration.ofSeconds(1), Clock.systemUTC());
  }

  /** Whether any cap is set. */
  public boolean enabled() {
    return maxInFlight > 0 || newKeysPerMinute > 0;
  }

  /** How a request fared. */
  public sealed interface Admission permits Admitted, Refused {}

  /**
   * The request may run. {@link #close()} it when the request has ended, whatever its end. Not
   * thread-safe: one request's thread uses it.
   */
  public final class Admitted implements Admission, AutoCloseable {
    private final String client;
    private boolean tokenTaken;
    private boolean closed;

    private Admitted(String client, boolean tokenTaken) {
      this.client = client;
      this.tokenTaken = tokenTaken;
    }

    /** The request started no new key: its token goes back to the client's bucket. */
    public void notNew() {
      if (tokenTaken) {
        tokenTaken = false;
        release(client, false, true);
      }
    }

    /** The request ended: it is no longer in flight. Idempotent. */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        release(client, maxInFlight > 0, false);
      }
    }
  }

  /**
   * The request is refused.
   *
   * @param problem {@link OnceProblem#TOO_MANY_IN_FLIGHT} or {@link OnceProblem#TOO_MANY_NEW_KEYS}
   * @param retryAfterSeconds when the client may try again, at least 1
   */
  public record Refused(OnceProblem problem, long retryAfterSeconds) implements Admission {}

  /** Admits or refuses a request of {@code client}; an admitted one must be closed. */
  public Admission admit(String client) {
    if (!enabled()) {
      return new Admitted(client, false);
    }
    if (admissions.incrementAndGet() % SWEEP_EVERY == 0) {
      sweep();
    }
    long now = clock.millis();
    Admission[] decision = new Admission[1];
    clients.compute(
        client,
        (id, allowance) -> {
          Allowance a = allowance == null ? new Allowance(newKeysPerMinute, now) : allowance;
          if (maxInFlight > 0 && a.inFlight >= maxInFlight) {
            decision[0] = new Refused(OnceProblem.TOO_MANY_IN_FLIGHT, inFlightRetryAfterSeconds);
          } else if (newKeysPerMinute > 0 && !a.takeToken(now, newKeysPerMinute)) {
            decision[0] =
                new Refused(OnceProblem.TOO_MANY_NEW_KEYS, a.secondsToToken(newKeysPerMinute));
          } else {
            if (maxInFlight > 0) {
              a.inFlight++;
            }
            decision[0] = new Admitted(id, newKeysPerMinute > 0);
          }
          return a.idle(now, newKeysPerMinute) ? null : a;
        });
    return decision[0];
  }

  /** The requests of {@code client} in flight now. */
  int inFlight(String client) {
    int[] count = new int[1];
    clients.computeIfPresent(
        client,
        (id, a) -> {
          count[0] = a.inFlight;
          return a;
        });
    return count[0];
  }

  /** Clients with state now (requests in flight, or a bucket not yet seen full). */
  int tracked() {
    return clients.size();
  }

  /**
   * Forgets every client that has nothing in flight and a full bucket. A client is forgotten when
   * one of its requests finds it so, and by this sweep, every {@link #SWEEP_EVERY} admissions, for
   * those that sent nothing since.
   */
  void sweep() {
    long now = clock.millis();
    for (String client : clients.keySet()) {
      clients.computeIfPresent(client, (id, a) -> a.idle(now, newKeysPerMinute) ? null : a);
    }
  }

  private void release(String client, boolean inFlight, boolean token) {
    long now = clock.millis();
    clients.computeIfPresent(
        client,
        (id, a) -> {
          if (inFlight) {
            a.inFlight--;
          }
          if (token) {
            a.tokens = Math.min(newKeysPerMinute, a.tokens + 1);
          }
          return a.idle(now, newKeysPerMinute) ? null : a;
        });
  }

  /** One client's state; guarded by the map's per-key lock. */
  private static final class Allowance {
    int inFlight;
    double tokens;
    long refilledAt;

    Allowance(int capacity, long now) {
      this.tokens = capacity;
      this.refilledAt = now;
    }

    boolean takeToken(long now, int perMinute) {
      refill(now, perMinute);
      if (tokens < 1) {
        return false;
      }
      tokens -= 1;
      return true;
    }

    long secondsToToken(int perMinute) {
      double millis = (1 - tokens) * MILLIS_PER_MINUTE / perMinute;
      return Math.max(1, (long) Math.ceil(millis / 1000));
    }

    boolean idle(long now, int perMinute) {
      if (inFlight > 0) {
        return false;
      }
      if (perMinute == 0) {
        return true;
      }
      refill(now, perMinute);
      return tokens >= perMinute;
    }

    private void refill(long now, int perMinute) {
      // A clock that steps back refills nothing, and never takes tokens away.
      long elapsed = Math.max(0, now - refilledAt);
      tokens = Math.min(perMinute, tokens + (double) elapsed * perMinute / MILLIS_PER_MINUTE);
      refilledAt = Math.max(refilledAt, now);
    }
  }
}
