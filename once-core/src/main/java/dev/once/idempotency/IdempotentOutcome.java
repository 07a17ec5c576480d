package dev.once.idempotency;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link IdempotencyEngine#execute} ended one idempotent request: exactly one of these, never
 * {@code null}. Every transaction of the request is over when it is returned, so the caller writes
 * the answer knowing that nothing it says is undone afterwards: a client never sees an answer that
 * is not durable.
 *
 * <p>{@link #ranHandler()} tells whether the handler ran. An outcome without it started no new key
 * (a replay, a mismatch, a key in use, a database that could not be reached): callers that count
 * new keys per client give the request's allowance back before they answer.
 */
public sealed interface IdempotentOutcome
    permits IdempotentOutcome.Executed,
        IdempotentOutcome.Refused,
        IdempotentOutcome.Replayed,
        IdempotentOutcome.NotStored,
        IdempotentOutcome.TooLarge,
        IdempotentOutcome.RollbackOnly,
        IdempotentOutcome.KeyReused,
        IdempotentOutcome.InUse,
        IdempotentOutcome.Unavailable {

  /**
   * Whether the handler ran for this request (its writes committed only if {@link Executed}).
   * Always for the outcomes that only a handler's answer leads to; {@link Replayed}, {@link
   * KeyReused}, {@link InUse} and {@link Unavailable}, which may come before or after the handler,
   * say it in a component of their own.
   */
  default boolean ranHandler() {
    return true;
  }

  /**
   * The handler's success (2xx, or 3xx but 304) committed with its answer, in one transaction: the
   * effect took place once, and every retry with the key replays {@code answer}.
   */
  record Executed(StoredResponse answer) implements IdempotentOutcome {
    public Executed {
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * The handler refused the request with a storable 4xx: all of its writes were rolled back, and
   * its answer was stored under the key in a second transaction (a new claim), so every retry with
   * the key replays {@code answer} and nothing of the request took effect.
   */
  record Refused(StoredResponse answer) implements IdempotentOutcome {
    public Refused {
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * The key holds the answer of an earlier request with the same fingerprint: answer with it,
   * marked as a replay. With {@code ranHandler} the handler ran too, but lost the key to that
   * request (which committed first) and was rolled back.
   */
  record Replayed(StoredResponse answer, boolean ranHandler) implements IdempotentOutcome {
    public Replayed {
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * The handler's answer is not stored: a status that is never stored (5xx, 1xx, 304, or a 4xx that
   * depends on timing, authentication or transport: see {@link IdempotencyEngine#isStorable}), an
   * answer the handler marked {@link HandlerAnswer#storable() not storable}, or a refusal larger
   * than the largest stored answer. Everything was rolled back and the key is free: pass {@code
   * answer} through as it is; a retry with the key executes anew.
   */
  record NotStored(HandlerAnswer answer) implements IdempotentOutcome {
    public NotStored {
      Objects.requireNonNull(answer, "answer");
    }
  }

  /**
   * The handler succeeded, but its answer ({@code answerBytes}) is larger than the largest stored
   * answer ({@code maxAnswerBytes}): a success must not commit without its answer, so everything
   * was rolled back and the key is free. Refuse the request (the starter: 422 {@code
   * answer-too-large}); nothing of it was applied.
   */
  record TooLarge(int answerBytes, int maxAnswerBytes) implements IdempotentOutcome {}

  /**
   * The handler answered a success, but the transaction was marked rollback-only: everything was
   * rolled back and the key is free. Answer with an error that invites a retry with the same key
   * (the starter: 500 {@code internal-error}).
   */
  record RollbackOnly() implements IdempotentOutcome {}

  /**
   * The key holds the answer of a different request (another fingerprint): nothing of this one took
   * effect (the starter: 422 {@code idempotency-key-reused}).
   */
  record KeyReused(boolean ranHandler) implements IdempotentOutcome {}

  /**
   * Another request holds the key right now: nothing of this one took effect; the client should
   * retry after {@code retryAfter} (the starter: 409 {@code idempotency-key-in-use} with {@code
   * Retry-After}).
   */
  record InUse(Duration retryAfter, boolean ranHandler) implements IdempotentOutcome {
    public InUse {
      Objects.requireNonNull(retryAfter, "retryAfter");
    }
  }

  /**
   * The database failed: nothing of the request was committed, unless the failure was the commit
   * itself, whose outcome is then unknown; either way a retry with the same key is applied at most
   * once (it replays the committed answer or executes anew). Answer "retry later" (the starter: 503
   * {@code service-unavailable} with {@code Retry-After: 1}). {@code cause} is what failed; {@link
   * dev.once.failures.TransientFailures} tells whether it is the kind that passes, and the engine
   * has logged it already (a transient condition once per interval without a stack trace, anything
   * else with one).
   */
  record Unavailable(RuntimeException cause, boolean ranHandler) implements IdempotentOutcome {
    public Unavailable {
      Objects.requireNonNull(cause, "cause");
    }
  }
}
