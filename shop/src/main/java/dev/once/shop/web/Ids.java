package dev.once.shop.web;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Opaque identifiers: a readable prefix naming the kind ({@code acc_}, {@code op_}, {@code pay_},
 * {@code ref_}, {@code cli_}) and 128 random bits in base64url. Random rather than sequential so
 * that ids reveal neither volumes nor neighbours, and can be made before the row exists (one
 * statement inserts rows that reference each other). Thread-safe.
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

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private Ids() {}

  /** A new id such as {@code acc_Vb3f0Yb2o7d8r5XxJ1rQ9w}. */
  public static String next(String prefix) {
    return prefix + "_" + ENCODER.encodeToString(randomBytes(16));
  }

  /** {@code n} bytes from the shared {@link SecureRandom}. */
  public static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
