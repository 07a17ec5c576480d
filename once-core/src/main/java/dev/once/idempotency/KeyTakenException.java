package dev.once.idempotency;

import dev.once.OnceException;

/**
 * {@link IdempotencyEngine#complete} wrote nothing: the key is no longer this transaction's. Either
 * another request committed an answer for it in the instant between this claim's read and its lock
 * (a race the claim cannot see, and the completion detects), or this transaction's claim had
 * already ended (it committed or rolled back before {@code complete}) and another request holds the
 * key now. The caller must roll its transaction back, so the request leaves no trace, and claim
 * again in a new transaction to learn what to answer: usually a replay of the other request's
 * answer. Never retried inside the same transaction.
 */
public final class KeyTakenException extends OnceException {
  private static final long serialVersionUID = 1L;

  private final transient IdempotencyScope scope;

  public KeyTakenException(IdempotencyScope scope) {
    super(
        "The idempotency key is no longer held by this transaction: another request stored or"
            + " holds it; roll back and claim again");
    this.scope = scope;
  }

  /** The client and key that were taken. */
  public IdempotencyScope scope() {
    return scope;
  }
}
