package dev.once.shop.events;

import java.util.List;
import java.util.Objects;

/**
 * The events the shop's modules publish to each other through the outbox, and their payloads. Every
 * order event has the order id as its aggregate, so the relay delivers one order's events in commit
 * order; a consumer must nevertheless apply any order and any repetition correctly (the inbox
 * removes exact repeats, and the tests deliver events out of order).
 */
public final class ShopEvents {
  /** An order was placed: reserve its items ({@link OrderPlaced}). */
  public static final String ORDER_PLACED = "order.placed";

  /** An order was cancelled: release what it holds ({@link OrderCancelled}). */
  public static final String ORDER_CANCELLED = "order.cancelled";

  /** Every item of an order is reserved ({@link StockOutcome}). */
  public static final String STOCK_RESERVED = "stock.reserved";

  /** An order could not be reserved whole, and nothing of it is ({@link StockOutcome}). */
  public static final String STOCK_REJECTED = "stock.rejected";

  private ShopEvents() {}

  /** A line of an order: {@code quantity} units of the product {@code sku}. */
  public record Line(String sku, long quantity) {
    public Line {
      Objects.requireNonNull(sku, "sku");
      if (quantity <= 0) {
        throw new IllegalArgumentException("a line's quantity is positive");
      }
    }
  }

  /** Payload of {@value #ORDER_PLACED}. */
  public record OrderPlaced(String orderId, String clientId, List<Line> items) {
    public OrderPlaced {
      Objects.requireNonNull(orderId, "orderId");
      Objects.requireNonNull(clientId, "clientId");
      items = List.copyOf(items);
    }
  }

  /** Payload of {@value #ORDER_CANCELLED}: the same lines as the order. */
  public record OrderCancelled(String orderId, String clientId, List<Line> items) {
    public OrderCancelled {
      Objects.requireNonNull(orderId, "orderId");
      Objects.requireNonNull(clientId, "clientId");
      items = List.copyOf(items);
    }
  }

  /**
   * Payload of {@value #STOCK_RESERVED} and {@value #STOCK_REJECTED}.
   *
   * @param reserved whether every line is reserved ({@value #STOCK_RESERVED}) or none is
   * @param shortSkus the products that did not have enough units (empty when reserved)
   */
  public record StockOutcome(String orderId, boolean reserved, List<String> shortSkus) {
    public StockOutcome {
      Objects.requireNonNull(orderId, "orderId");
      shortSkus = List.copyOf(shortSkus);
    }

    /** The event type of this outcome. */
    public String type() {
      return reserved ? STOCK_RESERVED : STOCK_REJECTED;
    }
  }
}
