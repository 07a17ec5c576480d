package dev.once.idempotency;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Fresh SHA-256 digests without a provider lookup per request: {@link
 * MessageDigest#getInstance(String)} searches the security providers every time, which showed in
 * the request path's profile; cloning one prototype does not.
 */
final class Sha256 {
  private Sha256() {}

  private static final MessageDigest PROTOTYPE = lookUp();

  /** A new digest, in its initial state; never shared. */
  static MessageDigest newDigest() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return lookUp(); // a provider whose digest cannot be cloned
    }
  }

  private static MessageDigest lookUp() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
