package dev.once.idempotency;

import dev.once.json.JsonCanonicalizer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * SHA-256 over a request's method, path with query, and body, so that a key sent again with a
 * different request is recognised as reused.
 *
 * <p>A JSON body ({@code application/json} or any {@code +json} media type) is hashed in its
 * canonical form ({@link JsonCanonicalizer}, RFC 8785 with {@link
 * JsonCanonicalizer.NumberMode#EXACT exact numbers}): whitespace, member order, escape spelling and
 * number spelling ({@code 1}, {@code 1.0}, {@code 10e-1}; {@code -0} and {@code 0}) do not change
 * the fingerprint, but two bodies whose numbers differ in value never share one, even where RFC
 * 8785 would round both to the same double ({@code 9007199254740993} and {@code 9007199254740992},
 * {@code 1e-400} and {@code 0}): handlers read numbers as {@code long} or {@code BigDecimal}, so a
 * retry with another amount must be refused, not answered with the first amount's response. Other
 * bodies are hashed as raw bytes. Immutable.
 */
public final class Fingerprint {

  /** Length of a fingerprint in bytes. */
  public static final int LENGTH = 32;

  private final byte[] sha256;

  private Fingerprint(byte[] sha256) {
    this.sha256 = sha256;
  }

  /**
   * Computes the fingerprint of one request.
   *
   * @param method the HTTP method, e.g. {@code POST} (case-insensitive)
   * @param pathWithQuery the request path and, if present, {@code ?} and the raw query string
   * @param contentType the request's {@code Content-Type}, or {@code null}
   * @param body the raw request body, possibly empty
   * @param canonicalizer supplies the depth limit for JSON bodies; numbers are always compared by
   *     exact value ({@link JsonCanonicalizer.NumberMode#EXACT}), whatever its number mode
   * @throws dev.once.json.MalformedJsonException if the body is declared JSON but is not (an empty
   *     body included)
   */
  public static Fingerprint of(
      String method,
      String pathWithQuery,
      String contentType,
      byte[] body,
      JsonCanonicalizer canonicalizer) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(pathWithQuery, "pathWithQuery");
    Objects.requireNonNull(body, "body");
    // An empty body declared as JSON is malformed JSON, not "no body": the handler would refuse it,
    // and a refusal of malformed input must never be stored under the key.
    byte[] hashed =
        isJson(contentType)
            ? canonicalizer.withNumberMode(JsonCanonicalizer.NumberMode.EXACT).canonicalize(body)
            : body;
    MessageDigest sha = Sha256.newDigest();
    // Method and path cannot contain a line feed, so it separates them unambiguously.
    sha.update(method.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    sha.update((byte) '\n');
    sha.update(pathWithQuery.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '\n');
    sha.update(hashed);
    return new Fingerprint(sha.digest());
  }

  /** Rebuilds a fingerprint read from storage. */
  public static Fingerprint fromBytes(byte[] sha256) {
    if (sha256 == null || sha256.length != LENGTH) {
      throw new IllegalArgumentException("a fingerprint is exactly " + LENGTH + " bytes");
    }
    return new Fingerprint(sha256.clone());
  }

  /**
   * Whether a {@code Content-Type} names JSON: {@code application/json} or a {@code +json} suffix,
   * parameters ignored.
   */
  public static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type =
        (semicolon >= 0 ? contentType.substring(0, semicolon) : contentType)
            .trim()
            .toLowerCase(Locale.ROOT);
    return type.equals("application/json")
        || (type.startsWith("application/") && type.endsWith("+json"));
  }

  public byte[] toBytes() {
    return sha256.clone();
  }

  public String toHex() {
    return HexFormat.of().formatHex(sha256);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Fingerprint other && MessageDigest.isEqual(sha256, other.sha256);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sha256);
  }

  @Override
  public String toString() {
    return "Fingerprint[" + toHex() + "]";
  }
}
