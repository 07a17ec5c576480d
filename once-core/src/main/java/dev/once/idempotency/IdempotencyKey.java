package dev.once.idempotency;

import java.util.List;
import java.util.Objects;

/**
 * A validated idempotency key: 1 to 255 visible ASCII characters (0x21 to 0x7E).
 *
 * <p>The header value may also be an RFC 8941 sf-string ({@code "abc"}); it is unquoted before the
 * grammar is applied, so {@code "abc"} and {@code abc} name the same key. Instances are immutable.
 */
public record IdempotencyKey(String value) {

  /** Longest accepted key, in characters. */
  public static final int MAX_LENGTH = 255;

  /** The HTTP header that carries the key. */
  public static final String HEADER = "Idempotency-Key";

  /**
   * @throws InvalidIdempotencyKeyException if {@code value} breaks the key grammar
   */
  public IdempotencyKey {
    Objects.requireNonNull(value, "value");
    checkGrammar(value);
  }

  /**
   * Reads the key from every value of the {@code Idempotency-Key} header of one request.
   *
   * @param headerValues all values of the header, in order; empty when the header is absent
   * @throws InvalidIdempotencyKeyException when the header is missing, repeated or malformed
   */
  public static IdempotencyKey fromHeaderValues(List<String> headerValues) {
    if (headerValues == null || headerValues.isEmpty()) {
      throw new InvalidIdempotencyKeyException(
          InvalidIdempotencyKeyException.Reason.MISSING, "The Idempotency-Key header is required.");
    }
    if (headerValues.size() > 1) {
      throw new InvalidIdempotencyKeyException(
          InvalidIdempotencyKeyException.Reason.REPEATED,
          "The Idempotency-Key header must appear exactly once.");
    }
    return parse(headerValues.get(0));
  }

  /**
   * Parses one header value: a bare key, or an RFC 8941 quoted string holding one.
   *
   * @throws InvalidIdempotencyKeyException when the value is not a valid key
   */
  public static IdempotencyKey parse(String headerValue) {
    if (headerValue == null) {
      throw new InvalidIdempotencyKeyException(
          InvalidIdempotencyKeyException.Reason.MISSING, "The Idempotency-Key header is required.");
    }
    String value = headerValue;
    if (value.length() >= 1 && value.charAt(0) == '"') {
      value = unquote(value);
    }
    return new IdempotencyKey(value);
  }

  private static String unquote(String quoted) {
    // RFC 8941 sf-string: DQUOTE *( unescaped / "\" ( DQUOTE / "\" ) ) DQUOTE
    StringBuilder out = new StringBuilder(quoted.length());
    int i = 1;
    while (i < quoted.length()) {
      char c = quoted.charAt(i);
      if (c == '\\') {
        if (i + 1 >= quoted.length()) {
          break;
        }
        char next = quoted.charAt(i + 1);
        if (next != '"' && next != '\\') {
          throw malformed("The quoted Idempotency-Key contains an invalid escape.");
        }
        out.append(next);
        i += 2;
      } else if (c == '"') {
        if (i != quoted.length() - 1) {
          throw malformed("The quoted Idempotency-Key has characters after its closing quote.");
        }
        return out.toString();
      } else if (c < 0x20 || c > 0x7E) {
        throw malformed("The Idempotency-Key may hold only visible ASCII characters.");
      } else {
        out.append(c);
        i++;
      }
    }
    throw malformed("The quoted Idempotency-Key has no closing quote.");
  }

  private static void checkGrammar(String value) {
    if (value.isEmpty()) {
      throw malformed("The Idempotency-Key must not be empty.");
    }
    if (value.length() > MAX_LENGTH) {
      throw malformed("The Idempotency-Key must be at most " + MAX_LENGTH + " characters long.");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7E) {
        throw malformed(
            "The Idempotency-Key may hold only visible ASCII characters (0x21 to 0x7E).");
      }
    }
  }

  private static InvalidIdempotencyKeyException malformed(String message) {
    return new InvalidIdempotencyKeyException(
        InvalidIdempotencyKeyException.Reason.MALFORMED, message);
  }

  @Override
  public String toString() {
    return value;
  }
}
