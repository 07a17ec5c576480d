package dev.once.shop.orders;

import java.util.Locale;

/**
 * The life of an order (docs/orders.md): {@code placed -> reserved | rejected}, {@code reserved ->
 * paid | cancelled}, {@code paid -> cancelled} (with a full refund), {@code placed -> cancelled}.
 * {@code rejected} and {@code cancelled} are final.
 */
public enum OrderStatus {
  PLACED,
  RESERVED,
  REJECTED,
  PAID,
  CANCELLED;

  /** The spelling in the database and on the wire. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status spelt {@code wireName}. */
  public static OrderStatus fromWireName(String wireName) {
    return valueOf(wireName.toUpperCase(Locale.ROOT));
  }
}
