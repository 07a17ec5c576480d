package dev.once.client;

import java.net.URI;
import java.time.Duration;

/**
 * Hooks for metrics: every method has a no-op default, so an implementation overrides only what it
 * counts. Called on the calling thread, synchronously, in order (started, ended, then retrying or
 * gave up); an exception thrown by a hook ends the call with it, so hooks should not throw. The
 * events never carry a body or the Idempotency-Key ({@link Call#keyed()} says only whether there is
 * one).
 */
public interface ClientListener {
  /** Listens to nothing. */
  ClientListener NONE = new ClientListener() {};

  /** An attempt of {@code call} is about to be sent; {@code attempt} counts from 1. */
  default void attemptStarted(Call call, int attempt) {}

  /** An attempt ended with an answer or an exception. */
  default void attemptEnded(Call call, int attempt, Outcome outcome) {}

  /** The call waits {@code delay} before attempt {@code attempt + 1}, because of {@code reason}. */
  default void retrying(Call call, int attempt, Duration delay, String reason) {}

  /** The call ends without an answer: {@code e} says why. */
  default void gaveUp(Call call, GaveUpException e) {}

  /** The call an event belongs to: its method, URI, and whether it has an Idempotency-Key. */
  record Call(String method, URI uri, boolean keyed) {}

  /**
   * How an attempt ended: an answer's {@code status} (and problem type, or null), or, with {@code
   * status} -1, the class name of the exception; {@code duration} by the client's clock.
   */
  record Outcome(int status, String problemType, String exception, Duration duration) {
    /** Whether the attempt got an answer (any status). */
    public boolean answered() {
      return status > 0;
    }
  }
}
