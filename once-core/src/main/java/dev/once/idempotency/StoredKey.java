package dev.once.idempotency;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A key as a store holds it.
 *
 * @param scope client and key
 * @param fingerprint the fingerprint of the request that claimed the key
 * @param state in progress or completed
 * @param response the stored answer; present exactly when completed
 * @param expiresAt when a completed key may be forgotten; {@code null} while in progress
 */
public record StoredKey(
    IdempotencyScope scope,
    Fingerprint fingerprint,
    KeyState state,
    StoredResponse response,
    Instant expiresAt) {

  public StoredKey {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(state, "state");
    if ((state == KeyState.COMPLETED) != (response != null && expiresAt != null)) {
      throw new IllegalArgumentException("a completed key has a response and an expiry; no other");
    }
  }

  public Optional<StoredResponse> storedResponse() {
    return Optional.ofNullable(response);
  }

  /** Whether a completed key has passed its retention at {@code now}. */
  public boolean isExpiredAt(Instant now) {
    return state == KeyState.COMPLETED && !expiresAt.isAfter(now);
  }
}
