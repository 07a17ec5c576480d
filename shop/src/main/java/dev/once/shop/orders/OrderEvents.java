package dev.once.shop.orders;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.PaymentFailed;
import dev.once.shop.events.ShopEvents.PaymentSucceeded;
import dev.once.shop.events.ShopEvents.StockRejected;
import dev.once.shop.events.ShopEvents.StockReserved;
import dev.once.spring.events.OnceListener;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #NAME}: moves orders on the stock's and the provider's answers, in the inbox's
 * transaction. {@value ShopEvents#STOCK_RESERVED} and {@value ShopEvents#STOCK_REJECTED} decide a
 * placed order; {@value ShopEvents#PAYMENT_SUCCEEDED} marks the order it pays paid ({@code
 * MarkPaid}); {@value ShopEvents#PAYMENT_FAILED} lets the order be paid again. Each is a
 * compare-and-set from the expected state, so a repeated or late event changes nothing.
 *
 * <p>A payment that succeeds for an order in an unexpected state cannot be applied: the consumer
 * throws, the event is retried and, after its attempts, turns dead for an operator (the shop's
 * rules make this unreachable: an order with a payment pending cannot be cancelled).
 */
@Component
class OrderEvents {
  static final String NAME = "orders";

  private final OrderService orders;

  OrderEvents(OrderService orders) {
    this.orders = orders;
  }

  @OnceListener(consumer = NAME)
  void on(StockReserved reserved) {
    orders.decide(reserved.orderId(), true);
  }

  @OnceListener(consumer = NAME)
  void on(StockRejected rejected) {
    orders.decide(rejected.orderId(), false);
  }

  @OnceListener(consumer = NAME)
  void on(PaymentSucceeded succeeded) {
    orders.markPaid(succeeded.paymentId());
  }

  @OnceListener(consumer = NAME)
  void on(PaymentFailed failed) {
    orders.paymentFailed(failed.paymentId());
  }
}
