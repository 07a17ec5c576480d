package dev.once.shop.clients;

import dev.once.shop.persistence.Ids;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * API keys: {@value #PREFIX} followed by 32 random bytes in base64url. The prefix makes a leaked
 * key recognisable (secret scanners, logs); the 256 random bits make it unguessable.
 *
 * <p>Only {@link #hash SHA-256} of a key is stored. A slow password hash (bcrypt, Argon2) exists to
 * make guessing low-entropy human passwords expensive; a 256-bit random key cannot be guessed
 * however fast the hash is, so a fast hash loses nothing and keeps authentication one indexed
 * lookup per request.
 */
final class ApiKeys {
  /** Readable prefix of every key. */
  static final String PREFIX = "shop_sk_";

  private static final int RANDOM_BYTES = 32;

  /** Every key {@link #generate} makes: the prefix, then 43 base64url characters (256 bits). */
  private static final Pattern WELL_FORMED = Pattern.compile(PREFIX + "[A-Za-z0-9_-]{43}");

  private ApiKeys() {}

  /** A new key, to be shown to its owner once. */
  static String generate() {
    return PREFIX
        + Base64.getUrlEncoder().withoutPadding().encodeToString(Ids.randomBytes(RANDOM_BYTES));
  }

  /** Whether {@code key} has the shape of a key this shop makes; no other string can be one. */
  static boolean isWellFormed(String key) {
    return WELL_FORMED.matcher(key).matches();
  }

  /** SHA-256 of the key's UTF-8 bytes: the only form in which a key is stored or looked up. */
  static byte[] hash(String key) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
