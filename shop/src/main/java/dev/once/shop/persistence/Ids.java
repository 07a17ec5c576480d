package dev.once.shop.persistence;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Opaque identifiers: a readable prefix naming the kind ({@code acc_}, {@code op_}, {@code pay_},
 * {@code ref_}, {@code cli_}, {@code ord_}) and 128 random bits in base64url. Random rather than
 * sequential so that ids reveal neither volumes nor neighbours, and can be made before the row
 * exists (one statement inserts rows that reference each other). Thread-safe.
 */
public final class Ids {
  /** Prefix of client ids. */
  public static final String CLIENT = "cli";

  /** Prefix of account ids. */
  public static final String ACCOUNT = "acc";

  /** Prefix of journal operation ids. */
  public static final String OPERATION = "op";

  /** Prefix of payment ids. */
  public static final String PAYMENT = "pay";

  /** Prefix of refund ids. */
  public static final String REFUND = "ref";

  /** Prefix of order ids. */
  public static final String ORDER = "ord";

  /** Length of the random part: 16 bytes in unpadded base64url. */
  private static final int RANDOM_CHARS = 22;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private Ids() {}

  /** A new id such as {@code acc_Vb3f0Yb2o7d8r5XxJ1rQ9w}. */
  public static String next(String prefix) {
    return prefix + "_" + ENCODER.encodeToString(randomBytes(16));
  }

  /**
   * Whether {@code id} has the shape that {@link #next} gives ids with {@code prefix}: the prefix,
   * an underscore and 22 base64url characters. Ids that clients send (path segments, cursors) are
   * checked with this before they reach the database, so that a malformed one (a NUL, text the
   * database cannot store, thousands of characters) is answered like an unknown id, without a
   * query.
   */
  public static boolean isWellFormed(String prefix, String id) {
    if (id == null
        || id.length() != prefix.length() + 1 + RANDOM_CHARS
        || !id.startsWith(prefix)
        || id.charAt(prefix.length()) != '_') {
      return false;
    }
    for (int i = prefix.length() + 1; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean base64url =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_';
      if (!base64url) {
        return false;
      }
    }
    return true;
  }

  /** {@code n} bytes from the shared {@link SecureRandom}. */
  public static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
