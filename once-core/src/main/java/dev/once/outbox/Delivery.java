package dev.once.outbox;

import java.util.Objects;

/**
 * What a {@link MessageHandler} says about one attempt. A handler that throws is treated as {@link
 * #retry(String)} with the exception's class name as the reason.
 */
public sealed interface Delivery {

  /** The outside effect happened (or had already happened): the row is done. */
  static Delivery done() {
    return Done.INSTANCE;
  }

  /**
   * A transient failure (time-out, 5xx, connection refused): try again after the type's backoff, or
   * turn {@code dead} if this was the last allowed attempt.
   *
   * @param reason a short text for operators; no payloads, no secrets
   */
  static Delivery retry(String reason) {
    return new Retry(reason);
  }

  /**
   * A permanent failure (the receiver refused the message for good): the row turns {@code dead} at
   * once, blocks later rows of its aggregate and waits for an operator to requeue it.
   *
   * @param reason a short text for operators; no payloads, no secrets
   */
  static Delivery dead(String reason) {
    return new Dead(reason);
  }

  /** Success. */
  enum Done implements Delivery {
    INSTANCE
  }

  /** A transient failure. */
  record Retry(String reason) implements Delivery {
    public Retry {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** A permanent failure. */
  record Dead(String reason) implements Delivery {
    public Dead {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
