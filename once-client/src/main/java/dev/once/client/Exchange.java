package dev.once.client;

import java.io.IOException;
import java.time.Duration;

/**
 * One attempt of a call on some HTTP transport, for {@link Retrier}: sends the request once (with
 * the call's key already on it) and reports what came back. {@link OnceClient} implements it on the
 * JDK client, the starter's {@code RestClient} interceptor on Spring's.
 *
 * @param <R> the transport's answer type; closed by the retrier (if {@link AutoCloseable}) when it
 *     is not returned
 */
@FunctionalInterface
public interface Exchange<R> {
  /**
   * Sends the request once.
   *
   * @param timeout what this attempt may take at most (the transport applies it if it can)
   * @throws IOException on a connection error or time-out: the attempt got no answer
   * @throws InterruptedException if interrupted meanwhile
   */
  Reply<R> attempt(Duration timeout) throws IOException, InterruptedException;

  /**
   * An attempt's answer: its status, its {@code Retry-After} header (or null), its problem type (or
   * null, see {@link ProblemType}), and the transport's answer itself.
   */
  record Reply<R>(int status, String retryAfter, String problemType, R response) {}
}
