package dev.once.idempotency;

import java.util.Objects;

/**
 * What the handler of an idempotent request answered, as {@link IdempotentHandler#handle} returns
 * it: the parts of an HTTP answer that are stored with a key and replayed ({@link StoredResponse}),
 * and whether the answer may be stored at all.
 *
 * @param status the HTTP status code
 * @param contentType the {@code Content-Type}, or {@code null}
 * @param location the {@code Location}, or {@code null}
 * @param body the body bytes, possibly empty; not copied
 * @param storable {@code false} if the answer must not be stored even though its status could be: a
 *     4xx that something other than the handler gave (an unknown path, a request refused before it
 *     reached the handler, so that a corrected retry with the same key executes), or an answer
 *     whose final body is written later by someone else (a servlet container's error page). Such an
 *     answer is rolled back and passed through, as {@link IdempotentOutcome.NotStored}
 */
public record HandlerAnswer(
    int status, String contentType, String location, byte[] body, boolean storable) {
  public HandlerAnswer {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be an HTTP status code, was " + status);
    }
    Objects.requireNonNull(body, "body");
  }

  /** A storable answer (if its status is: see {@link IdempotencyEngine#isStorable}). */
  public static HandlerAnswer of(int status, String contentType, String location, byte[] body) {
    return new HandlerAnswer(status, contentType, location, body, true);
  }

  /** This answer, never to be stored: rolled back and passed through. */
  public HandlerAnswer notStorable() {
    return new HandlerAnswer(status, contentType, location, body, false);
  }

  /** The stored form of this answer. */
  StoredResponse stored() {
    return StoredResponse.of(status, contentType, location, body);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HandlerAnswer other
        && stored().equals(other.stored())
        && storable == other.storable;
  }

  @Override
  public int hashCode() {
    return Objects.hash(stored(), storable);
  }

  @Override
  public String toString() {
    // Never the body: it may hold data the client considers private.
    return "HandlerAnswer[status="
        + status
        + ", contentType="
        + contentType
        + ", bodyLength="
        + body.length
        + ", storable="
        + storable
        + "]";
  }
}
