package dev.once.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * The unit a key is unique in: one authenticated client and one key. Two clients that send the same
 * key are independent and never see each other's answers.
 *
 * @param clientId the authenticated client, as resolved by the application before any lookup
 * @param key the client's idempotency key
 */
public record IdempotencyScope(String clientId, IdempotencyKey key) {

  /** Longest accepted client id, in characters. */
  public static final int MAX_CLIENT_ID_LENGTH = 255;

  public IdempotencyScope {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(key, "key");
    if (clientId.isEmpty() || clientId.length() > MAX_CLIENT_ID_LENGTH) {
      throw new IllegalArgumentException(
          "clientId must be 1 to " + MAX_CLIENT_ID_LENGTH + " characters long");
    }
  }

  /**
   * A 64-bit number derived from the scope with SHA-256, used as the PostgreSQL advisory-lock id
   * that keeps a duplicate from waiting on the first request's row lock. Two scopes that collide
   * only cause a spurious "in use" answer, never a second execution.
   */
  public long lockId() {
    MessageDigest sha256 = Sha256.newDigest();
    byte[] client = clientId.getBytes(StandardCharsets.UTF_8);
    sha256.update(
        new byte[] {
          (byte) (client.length >>> 24),
          (byte) (client.length >>> 16),
          (byte) (client.length >>> 8),
          (byte) client.length
        });
    sha256.update(client);
    sha256.update(key.value().getBytes(StandardCharsets.US_ASCII));
    byte[] digest = sha256.digest();
    long id = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      id = (id << 8) | (digest[i] & 0xFF);
    }
    return id;
  }
}
