package dev.once.client;

import java.io.IOException;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The retry rules of a call, on any transport: which key a call uses, which outcomes are retried,
 * how long to wait, when to give up. {@link OnceClient} runs its calls through it, and so does the
 * starter's {@code RestClient} interceptor, so the two cannot disagree. Thread-safe: one instance
 * serves concurrent calls; a call runs on its caller's thread.
 *
 * <p>The rules (see the package comment and docs/client.md):
 *
 * <ul>
 *   <li>Retried when the call has a key or a safe method (GET, HEAD): an {@link IOException}
 *       (connection error, time-out), 408, 425, 429, 5xx, and a 409 whose problem type is {@code
 *       idempotency-key-in-use} or that carries {@code Retry-After}. Anything else is the answer.
 *   <li>A 422 {@code idempotency-key-reused} throws {@link IdempotencyKeyReusedException}.
 *   <li>The wait is the {@code Retry-After} of a 409, 429 or 503 when it has a readable one, else
 *       the policy's full-jitter backoff. Measured by the injected clock and slept by the injected
 *       {@link Sleeper}.
 *   <li>Gives up ({@link GaveUpException}) when the attempts are used up, the deadline has passed,
 *       or the next wait would end at or past it; and at once when a failure may not be retried.
 * </ul>
 */
public final class Retrier {
  private static final Set<String> SAFE = Set.of("GET", "HEAD");

  private final CallRetryPolicy policy;
  private final ClientListener listener;
  private final Clock clock;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final UuidV7 keys;

  private Retrier(Builder b) {
    this.policy = b.policy;
    this.listener = b.listener;
    this.clock = b.clock;
    this.sleeper = b.sleeper;
    this.random = b.random == null ? new SecureRandom() : b.random;
    this.keys = new UuidV7(b.clock, this.random);
  }

  /** A builder: default policy, no listener, the system clock, real sleeping, a SecureRandom. */
  public static Builder builder() {
    return new Builder();
  }

  /** The policy. */
  public CallRetryPolicy policy() {
    return policy;
  }

  /** A fresh key: a UUIDv7 (RFC 9562) in its canonical lower-case form. */
  public String newKey() {
    return keys.next().toString();
  }

  /**
   * The key of a call: {@code given} if not null; otherwise a fresh UUIDv7 if {@code method} is not
   * safe and the caller did not opt out ({@code optOut}); otherwise none (null).
   */
  public String keyFor(String method, String given, boolean optOut) {
    if (given != null) {
      return given;
    }
    return optOut || isSafe(method) ? null : newKey();
  }

  /** Whether {@code method} is safe (GET, HEAD), so retried without a key. */
  public static boolean isSafe(String method) {
    return SAFE.contains(method.toUpperCase(Locale.ROOT));
  }

  /** The result of a call: the answer returned and how many attempts it took. */
  public record Completed<R>(R response, int attempts) {}

  /**
   * Runs one call: attempts {@code exchange} until an answer that is not retried, and returns it.
   *
   * @param key the call's key, already set on the request by the caller, or null
   * @throws GaveUpException when it gives up (see the class comment)
   * @throws IdempotencyKeyReusedException on a 422 {@code idempotency-key-reused}
   * @throws CallInterruptedException if interrupted; the interrupt flag is set again
   */
  public <R> Completed<R> run(String method, URI uri, String key, Exchange<R> exchange) {
    Call c = new Call(new ClientListener.Call(method, uri, key != null), key);
    c.retryable = key != null || isSafe(method);
    c.start = clock.instant();
    c.deadline = c.start.plus(policy.deadline());
    while (true) {
      Instant now = clock.instant();
      if (!now.isBefore(c.deadline)) {
        throw giveUp(c, "deadline " + policy.deadline() + " passed");
      }
      c.attempt++;
      Duration left = Duration.between(now, c.deadline);
      Duration timeout =
          left.compareTo(policy.attemptTimeout()) < 0 ? left : policy.attemptTimeout();
      listener.attemptStarted(c.info, c.attempt);
      Exchange.Reply<R> reply;
      try {
        reply = exchange.attempt(timeout);
      } catch (IOException e) {
        failed(c, e, now);
        continue;
      } catch (InterruptedException e) {
        throw interrupted(c, e);
      }
      if (answered(c, reply, now)) {
        return new Completed<>(reply.response(), c.attempt);
      }
    }
  }

  /** An attempt failed without an answer: gives up, or waits for the next one. */
  private void failed(Call c, IOException e, Instant began) {
    String name = e.getClass().getName();
    listener.attemptEnded(
        c.info,
        c.attempt,
        new ClientListener.Outcome(-1, null, name, Duration.between(began, clock.instant())));
    c.lastStatus = -1;
    c.lastException = name;
    c.lastCause = e;
    if (!c.retryable) {
      throw giveUp(c, "not retried: " + c.info.method() + " without an Idempotency-Key");
    }
    await(c, policy.backoff(c.attempt, random), e.getClass().getSimpleName());
  }

  /** An attempt got an answer: true to return it; false after waiting for the next attempt. */
  private boolean answered(Call c, Exchange.Reply<?> reply, Instant began) {
    int status = reply.status();
    String type = reply.problemType();
    listener.attemptEnded(
        c.info,
        c.attempt,
        new ClientListener.Outcome(status, type, null, Duration.between(began, clock.instant())));
    if (c.key != null && status == 422 && ProblemType.is(type, "idempotency-key-reused")) {
      close(reply.response());
      throw new IdempotencyKeyReusedException(c.key, c.attempt);
    }
    if (!c.retryable || !retried(status, type, reply.retryAfter())) {
      return true;
    }
    close(reply.response());
    c.lastStatus = status;
    c.lastException = null;
    c.lastCause = null;
    Optional<Duration> asked =
        status == 409 || status == 429 || status == 503
            ? RetryAfter.parse(reply.retryAfter(), clock.instant())
            : Optional.empty();
    String reason =
        "HTTP " + status + (type == null ? "" : " " + type.substring(type.lastIndexOf('/') + 1));
    if (asked.isPresent()) {
      await(c, asked.get(), reason + ", Retry-After " + asked.get().toSeconds() + " s");
    } else {
      await(c, policy.backoff(c.attempt, random), reason);
    }
    return false;
  }

  /** Waits {@code delay} before the next attempt, or gives up if there is none. */
  private void await(Call c, Duration delay, String reason) {
    if (c.attempt >= policy.maxAttempts()) {
      throw giveUp(c, "all " + policy.maxAttempts() + " attempts used");
    }
    if (!clock.instant().plus(delay).isBefore(c.deadline)) {
      throw giveUp(
          c,
          "waiting "
              + delay.toMillis()
              + " ms ("
              + reason
              + ") would pass the deadline "
              + policy.deadline());
    }
    listener.retrying(c.info, c.attempt, delay, reason);
    try {
      sleeper.sleep(delay);
    } catch (InterruptedException e) {
      throw interrupted(c, e);
    }
  }

  private static CallInterruptedException interrupted(Call c, InterruptedException e) {
    Thread.currentThread().interrupt();
    return new CallInterruptedException(c.key, c.attempt, e);
  }

  /** The state of one call, confined to its thread. */
  private static final class Call {
    final ClientListener.Call info;
    final String key;
    boolean retryable;
    Instant start;
    Instant deadline;
    int attempt;
    int lastStatus = -1;
    String lastException;
    Throwable lastCause;

    Call(ClientListener.Call info, String key) {
      this.info = info;
      this.key = key;
    }
  }

  /** Whether an answer with this status is retried (the call may be retried at all). */
  static boolean retried(int status, String problemType, String retryAfter) {
    return switch (status) {
      case 408, 425, 429 -> true;
      case 409 -> retryAfter != null || ProblemType.is(problemType, "idempotency-key-in-use");
      default -> status >= 500 && status <= 599;
    };
  }

  private GaveUpException giveUp(Call c, String reason) {
    GaveUpException e =
        new GaveUpException(
            reason,
            c.key,
            c.attempt,
            c.lastStatus,
            c.lastException,
            Duration.between(c.start, clock.instant()),
            c.lastCause);
    listener.gaveUp(c.info, e);
    return e;
  }

  private static void close(Object response) {
    if (response instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        // The answer is dropped for a retry; failing to close it changes nothing for the call.
      }
    }
  }

  /** Builds a {@link Retrier}; not thread-safe. */
  public static final class Builder {
    private CallRetryPolicy policy = CallRetryPolicy.defaults();
    private ClientListener listener = ClientListener.NONE;
    private Clock clock = Clock.systemUTC();
    private Sleeper sleeper = Sleeper.SYSTEM;
    private RandomGenerator random; // null: a new SecureRandom

    private Builder() {}

    public Builder policy(CallRetryPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    public Builder listener(ClientListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The clock that measures waits and the deadline, and timestamps keys. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The source of the jitter and of the keys' random bits; must be thread-safe. */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    public Retrier build() {
      return new Retrier(this);
    }
  }
}
