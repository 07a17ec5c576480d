package dev.once.shop.events;

import dev.once.spring.events.OnceEvent;
import java.util.List;
import java.util.Objects;

/**
 * The events the shop's modules publish to each other through the outbox, and their payloads: one
 * {@link OnceEvent} record per event type, published with {@code OnceEvents} and consumed by
 * {@code @OnceListener} methods. Every order event has the order id as its aggregate, a payment
 * event the payment id, so the relay delivers one order's (one payment's) events in commit order; a
 * consumer must nevertheless apply any order and any repetition correctly (the inbox removes exact
 * repeats, and the tests deliver events out of order). All are version 1: their JSON is exactly the
 * record's, as before the typed API.
 */
public final class ShopEvents {
  /** An order was placed: reserve its items ({@link OrderPlaced}). */
  public static final String ORDER_PLACED = "order.placed";

  /** An order was cancelled: release what it holds ({@link OrderCancelled}). */
  public static final String ORDER_CANCELLED = "order.cancelled";

  /** Every item of an order is reserved ({@link StockReserved}). */
  public static final String STOCK_RESERVED = "stock.reserved";

  /** An order could not be reserved whole, and nothing of it is ({@link StockRejected}). */
  public static final String STOCK_REJECTED = "stock.rejected";

  /** The provider accepted a payment ({@link PaymentSucceeded}). */
  public static final String PAYMENT_SUCCEEDED = "payment.succeeded";

  /**
   * The provider declined a payment, whose charge is already given back ({@link PaymentFailed}).
   */
  public static final String PAYMENT_FAILED = "payment.failed";

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
  @OnceEvent(name = ORDER_PLACED)
  public record OrderPlaced(String orderId, String clientId, List<Line> items) {
    public OrderPlaced {
      Objects.requireNonNull(orderId, "orderId");
      Objects.requireNonNull(clientId, "clientId");
      items = List.copyOf(items);
    }
  }

  /** Payload of {@value #ORDER_CANCELLED}: the same lines as the order. */
  @OnceEvent(name = ORDER_CANCELLED)
  public record OrderCancelled(String orderId, String clientId, List<Line> items) {
    public OrderCancelled {
      Objects.requireNonNull(orderId, "orderId");
      Objects.requireNonNull(clientId, "clientId");
      items = List.copyOf(items);
    }
  }

  /**
   * The stock's answer to a placed order: {@link StockReserved} or {@link StockRejected}, whose
   * payloads share their members.
   */
  public sealed interface StockOutcome permits StockReserved, StockRejected {
    String orderId();

    /** Whether every line is reserved, or none is. */
    boolean reserved();

    /** The products that did not have enough units (empty when reserved). */
    List<String> shortSkus();

    /** The outcome {@code reserved} or rejected, for {@code shortSkus}. */
    static StockOutcome of(String orderId, boolean reserved, List<String> shortSkus) {
      return reserved
          ? new StockReserved(orderId, true, shortSkus)
          : new StockRejected(orderId, false, shortSkus);
    }
  }

  /**
   * Payload of {@value #STOCK_RESERVED}.
   *
   * @param reserved always true (the member the payload has always had)
   * @param shortSkus always empty
   */
  @OnceEvent(name = STOCK_RESERVED)
  public record StockReserved(String orderId, boolean reserved, List<String> shortSkus)
      implements StockOutcome {
    public StockReserved {
      Objects.requireNonNull(orderId, "orderId");
      if (!reserved) {
        throw new IllegalArgumentException("a stock.reserved event has reserved = true");
      }
      shortSkus = List.copyOf(shortSkus);
    }
  }

  /**
   * Payload of {@value #STOCK_REJECTED}.
   *
   * @param reserved always false (the member the payload has always had)
   * @param shortSkus the products that did not have enough units when the order was decided, or,
   *     when a repeated event publishes the decision again, the ones that have too few now
   */
  @OnceEvent(name = STOCK_REJECTED)
  public record StockRejected(String orderId, boolean reserved, List<String> shortSkus)
      implements StockOutcome {
    public StockRejected {
      Objects.requireNonNull(orderId, "orderId");
      if (reserved) {
        throw new IllegalArgumentException("a stock.rejected event has reserved = false");
      }
      shortSkus = List.copyOf(shortSkus);
    }
  }

  /**
   * Payload of {@value #PAYMENT_SUCCEEDED}.
   *
   * @param amount the amount, four decimals
   * @param status {@code succeeded}
   */
  @OnceEvent(name = PAYMENT_SUCCEEDED)
  public record PaymentSucceeded(
      String paymentId, String accountId, String amount, String currency, String status) {
    public PaymentSucceeded {
      Objects.requireNonNull(paymentId, "paymentId");
    }
  }

  /**
   * Payload of {@value #PAYMENT_FAILED}.
   *
   * @param amount the amount, four decimals
   * @param status {@code failed}
   */
  @OnceEvent(name = PAYMENT_FAILED)
  public record PaymentFailed(
      String paymentId, String accountId, String amount, String currency, String status) {
    public PaymentFailed {
      Objects.requireNonNull(paymentId, "paymentId");
    }
  }
}
