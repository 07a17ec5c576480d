package dev.once.shop.accounts;

import java.util.Locale;

/** What a journal row records; the sign of its amount follows from the kind. */
public enum OperationKind {
  /** Money paid in; positive. */
  DEPOSIT,
  /** Money taken by a payment; negative. */
  CHARGE,
  /** Money given back by a refund of a charge; positive, references the charge. */
  REFUND,
  /** A whole charge given back because the provider declined it; positive, references it. */
  REVERSAL;

  /** The spelling in the database and on the wire. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind spelt {@code wireName}. */
  public static OperationKind fromWireName(String wireName) {
    return valueOf(wireName.toUpperCase(Locale.ROOT));
  }
}
