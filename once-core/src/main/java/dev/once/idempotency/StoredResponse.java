package dev.once.idempotency;

import java.util.Arrays;
import java.util.Objects;

/**
 * The answer stored for a completed key and replayed to every retry: status, body and the headers
 * that matter to a client ({@code Content-Type}, {@code Location}). Immutable; the body is copied
 * in and out.
 */
public final class StoredResponse {
  private final int status;
  private final String contentType;
  private final String location;
  private final byte[] body;

  private StoredResponse(int status, String contentType, String location, byte[] body) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be an HTTP status code, was " + status);
    }
    this.status = status;
    this.contentType = contentType;
    this.location = location;
    this.body = Objects.requireNonNull(body, "body").clone();
  }

  /**
   * @param status the HTTP status code
   * @param contentType the {@code Content-Type} header, or {@code null}
   * @param location the {@code Location} header, or {@code null}
   * @param body the body bytes, possibly empty
   */
  public static StoredResponse of(int status, String contentType, String location, byte[] body) {
    return new StoredResponse(status, contentType, location, body);
  }

  public int status() {
    return status;
  }

  /** The {@code Content-Type}, or {@code null}. */
  public String contentType() {
    return contentType;
  }

  /** The {@code Location}, or {@code null}. */
  public String location() {
    return location;
  }

  public byte[] body() {
    return body.clone();
  }

  public int bodyLength() {
    return body.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredResponse other
        && status == other.status
        && Objects.equals(contentType, other.contentType)
        && Objects.equals(location, other.location)
        && Arrays.equals(body, other.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, contentType, location, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    // Never the body: it may hold data the client considers private.
    return "StoredResponse[status="
        + status
        + ", contentType="
        + contentType
        + ", bodyLength="
        + body.length
        + "]";
  }
}
