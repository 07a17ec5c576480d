package dev.once.client;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code type} of an RFC 9457 problem answer, the only thing the client reads from a body (to
 * tell {@code idempotency-key-in-use} and {@code idempotency-key-reused} from other 409s and 422s).
 * Hand-written because the module has no JSON library: it reads only {@code
 * application/problem+json} bodies up to 16 KiB, and takes the first {@code "type"} member whose
 * string has no escapes (RFC 9457 problems put theirs at the top level; a body that nests another
 * {@code "type"} before it may be misread, and then at worst a 409 or 422 is not recognised as the
 * key's); anything else has no type.
 */
public final class ProblemType {
  private static final int MAX_BODY = 16 * 1024;
  private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"\\\\]{1,1000})\"");

  private ProblemType() {}

  /**
   * The problem type of an answer with this {@code Content-Type} and body, or null if it is not a
   * problem or has none.
   */
  public static String of(String contentType, byte[] body) {
    if (contentType == null
        || body == null
        || body.length > MAX_BODY
        || !contentType.toLowerCase(Locale.ROOT).startsWith("application/problem+json")) {
      return null;
    }
    Matcher m = TYPE.matcher(new String(body, StandardCharsets.UTF_8));
    return m.find() ? m.group(1) : null;
  }

  /** Whether {@code type} is a problem type whose last path segment is {@code slug}. */
  static boolean is(String type, String slug) {
    return type != null && (type.equals(slug) || type.endsWith("/" + slug));
  }
}
