package dev.once.shop.orders;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An order and the rules of its state machine. The rules are checked here on a row the caller has
 * locked, and the caller writes the change; so a check and its write never race.
 *
 * @param id opaque id, {@code ord_...}
 * @param accountId the account that pays
 * @param status where the order is in its life
 * @param items its lines, by sku
 * @param total the sum of the lines, in {@code currency}
 * @param paymentId the pending payment while reserved, the paying one once paid
 * @param refundId the refund of a paid order's cancellation
 * @param reservedAt when its stock was reserved
 */
public record Order(
    String id,
    String accountId,
    OrderStatus status,
    List<Item> items,
    BigDecimal total,
    String currency,
    Optional<String> paymentId,
    Optional<String> refundId,
    Instant createdAt,
    Optional<Instant> reservedAt) {

  public Order {
    items = List.copyOf(items);
  }

  /**
   * {@code MarkPaid(paymentId)}, as the design note states it: a no-op when the order is already
   * paid by this payment, and an error from any state other than the expected one, which is {@code
   * reserved} with this payment pending.
   *
   * @return whether the order moves to paid ({@code false}: already paid by this payment)
   * @throws InvalidOrderStateException from any other state, or for another payment
   */
  public boolean markPaid(String payment) {
    boolean ours = paymentId.filter(payment::equals).isPresent();
    if (status == OrderStatus.PAID && ours) {
      return false;
    }
    if (status != OrderStatus.RESERVED || !ours) {
      throw new InvalidOrderStateException(
          id, status, "be marked paid by payment '" + payment + "'");
    }
    return true;
  }

  /**
   * Checks that the order can be paid: reserved, with no payment pending.
   *
   * @throws InvalidOrderStateException otherwise
   */
  public void checkPayable() {
    if (status != OrderStatus.RESERVED) {
      throw new InvalidOrderStateException(id, status, "be paid; only a reserved order can");
    }
    if (paymentId.isPresent()) {
      throw new InvalidOrderStateException(
          id, status, "be paid again while its payment '" + paymentId.get() + "' is pending");
    }
  }

  /**
   * Checks that the order can be cancelled: placed, reserved with no payment pending, or paid.
   *
   * @return whether the cancellation must refund a payment (the order is paid)
   * @throws InvalidOrderStateException otherwise
   */
  public boolean checkCancellable() {
    switch (status) {
      case PLACED:
        return false;
      case RESERVED:
        if (paymentId.isPresent()) {
          throw new InvalidOrderStateException(
              id,
              status,
              "be cancelled while its payment '"
                  + paymentId.get()
                  + "' is pending; cancel it once the payment has settled");
        }
        return false;
      case PAID:
        return true;
      default:
        throw new InvalidOrderStateException(id, status, "be cancelled");
    }
  }

  /** This order as its cancellation leaves it, with the refund it made, if any. */
  Order cancelled(Optional<String> refund) {
    return new Order(
        id,
        accountId,
        OrderStatus.CANCELLED,
        items,
        total,
        currency,
        paymentId,
        refund,
        createdAt,
        reservedAt);
  }

  /**
   * A line of an order.
   *
   * @param price the unit price when the order was placed
   */
  public record Item(String sku, long quantity, BigDecimal price) {}
}
