package dev.once.shop.payments;

import java.util.Locale;

/**
 * The provider-side life of a payment (and of a refund): {@code pending} until the provider
 * answers, then {@code succeeded} or {@code failed} for good. The legal transitions are exactly
 * {@code pending -> succeeded} and {@code pending -> failed}; the database applies them as
 * compare-and-set on the expected current status.
 */
public enum PaymentStatus {
  PENDING,
  SUCCEEDED,
  FAILED;

  /** Whether a payment in this status may move to {@code next}. */
  public boolean canTransitionTo(PaymentStatus next) {
    return this == PENDING && next != PENDING;
  }

  /** Whether no transition leaves this status. */
  public boolean isTerminal() {
    return this != PENDING;
  }

  /** The spelling in the database and on the wire. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status spelt {@code wireName}. */
  public static PaymentStatus fromWireName(String wireName) {
    return valueOf(wireName.toUpperCase(Locale.ROOT));
  }
}
