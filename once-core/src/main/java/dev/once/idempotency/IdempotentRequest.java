package dev.once.idempotency;

import java.time.Duration;
import java.util.Objects;

/**
 * One idempotent request as {@link IdempotencyEngine#execute} runs it: its key, its fingerprint,
 * and the per-call settings.
 *
 * @param scope client and key
 * @param fingerprint what the request is; a retry must have the same one to be replayed
 * @param retention how long the key's answer is kept after it is stored, or {@code null} for the
 *     engine's {@link IdempotencyEngine#retention()}; at least one second ({@link
 *     IdempotencyLimits#checkRetention})
 * @param maxAnswerBytes the largest answer body stored with the key, at least 1: a larger success
 *     is rolled back ({@link IdempotentOutcome.TooLarge}), a larger refusal is passed through
 *     unstored ({@link IdempotentOutcome.NotStored})
 */
public record IdempotentRequest(
    IdempotencyScope scope, Fingerprint fingerprint, Duration retention, int maxAnswerBytes) {
  public IdempotentRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(fingerprint, "fingerprint");
    if (retention != null) {
      IdempotencyLimits.checkRetention(retention);
    }
    if (maxAnswerBytes < 1) {
      throw new IllegalArgumentException(
          "maxAnswerBytes must be at least 1, was " + maxAnswerBytes);
    }
  }

  /**
   * A request with the engine's retention and {@link IdempotencyLimits#DEFAULT_MAX_ANSWER_BYTES}.
   */
  public static IdempotentRequest of(IdempotencyScope scope, Fingerprint fingerprint) {
    return new IdempotentRequest(
        scope, fingerprint, null, IdempotencyLimits.DEFAULT_MAX_ANSWER_BYTES);
  }

  /** This request with its own retention ({@code null}: the engine's). */
  public IdempotentRequest withRetention(Duration retention) {
    return new IdempotentRequest(scope, fingerprint, retention, maxAnswerBytes);
  }

  /** This request with another largest stored answer. */
  public IdempotentRequest withMaxAnswerBytes(int maxAnswerBytes) {
    return new IdempotentRequest(scope, fingerprint, retention, maxAnswerBytes);
  }
}
