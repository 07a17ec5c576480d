package dev.once.client;

import java.net.http.HttpClient;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Sends requests with an {@code Idempotency-Key} and retries them safely (the rules: {@link
 * Retrier} and docs/client.md). One key per call, kept for all its attempts; the answer says how
 * many attempts it took and whether it was a replay. Thread-safe: build one and share it.
 *
 * <pre>{@code
 * OnceClient client = OnceClient.builder()
 *     .retry(CallRetryPolicy.builder().deadline(Duration.ofSeconds(10)).build())
 *     .build();
 * OnceResponse r = client.send(OnceRequest.post(uri).json(body).key("order-42-payment"));
 * }</pre>
 */
public interface OnceClient {
  /**
   * Sends {@code request}, retrying as its policy says, and returns the answer that is not retried
   * (a 2xx, 3xx, or a 4xx other than those retried).
   *
   * @throws GaveUpException when no such answer came before the deadline or the last attempt, or a
   *     failure may not be retried
   * @throws IdempotencyKeyReusedException on a 422 {@code idempotency-key-reused}
   * @throws CallInterruptedException if the thread is interrupted (its flag stays set)
   */
  OnceResponse send(OnceRequest request);

  /** The retry policy of every call. */
  CallRetryPolicy policy();

  /** A builder with a new JDK client (HTTP/1.1 and 2, no redirects). */
  static Builder builder() {
    return new Builder(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build());
  }

  /** A builder on {@code http}, the caller's JDK client (its connect time-out, proxy, TLS). */
  static Builder builder(HttpClient http) {
    return new Builder(Objects.requireNonNull(http, "http"));
  }

  /** Builds an {@link OnceClient}; not thread-safe. */
  final class Builder {
    private final HttpClient http;
    private final Retrier.Builder retrier = Retrier.builder();

    private Builder(HttpClient http) {
      this.http = http;
    }

    /** The retry policy; default {@link CallRetryPolicy#defaults()}. */
    public Builder retry(CallRetryPolicy policy) {
      retrier.policy(policy);
      return this;
    }

    /** Metrics hooks; default none. */
    public Builder listener(ClientListener listener) {
      retrier.listener(listener);
      return this;
    }

    /** The clock that measures the deadline and waits; default the system's UTC clock. */
    public Builder clock(Clock clock) {
      retrier.clock(clock);
      return this;
    }

    /** What waits between attempts; default {@link Sleeper#SYSTEM}. */
    public Builder sleeper(Sleeper sleeper) {
      retrier.sleeper(sleeper);
      return this;
    }

    /** The jitter's and the keys' random source; default a {@link java.security.SecureRandom}. */
    public Builder random(RandomGenerator random) {
      retrier.random(random);
      return this;
    }

    public OnceClient build() {
      return new JdkOnceClient(http, retrier.build());
    }
  }
}
