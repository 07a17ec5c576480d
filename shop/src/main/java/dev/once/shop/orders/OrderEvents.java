package dev.once.shop.orders;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.StockOutcome;
import dev.once.shop.payments.PaymentService;
import java.sql.Connection;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Inbox consumer {@value #NAME}: moves orders on the stock's and the provider's answers, in the
 * inbox's transaction. {@value ShopEvents#STOCK_RESERVED} and {@value ShopEvents#STOCK_REJECTED}
 * decide a placed order; {@value PaymentService#PAYMENT_SUCCEEDED} marks the order it pays paid
 * ({@code MarkPaid}); {@value PaymentService#PAYMENT_FAILED} lets the order be paid again. Each is
 * a compare-and-set from the expected state, so a repeated or late event changes nothing.
 *
 * <p>A payment that succeeds for an order in an unexpected state cannot be applied: the consumer
 * throws, the event is retried and, after its attempts, turns dead for an operator (the shop's
 * rules make this unreachable: an order with a payment pending cannot be cancelled).
 */
@Component
class OrderEvents implements InboxConsumer {
  static final String NAME = "orders";

  private final OrderService orders;
  private final JsonMapper json;

  OrderEvents(OrderService orders, JsonMapper json) {
    this.orders = orders;
    this.json = json;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<String> types() {
    return Set.of(
        ShopEvents.STOCK_RESERVED,
        ShopEvents.STOCK_REJECTED,
        PaymentService.PAYMENT_SUCCEEDED,
        PaymentService.PAYMENT_FAILED);
  }

  @Override
  public void consume(Connection tx, InboxMessage message) {
    switch (message.type()) {
      case ShopEvents.STOCK_RESERVED:
      case ShopEvents.STOCK_REJECTED:
        StockOutcome outcome = json.readValue(message.payloadJson(), StockOutcome.class);
        orders.decide(outcome.orderId(), message.type().equals(ShopEvents.STOCK_RESERVED));
        break;
      case PaymentService.PAYMENT_SUCCEEDED:
        orders.markPaid(paymentId(message));
        break;
      case PaymentService.PAYMENT_FAILED:
        orders.paymentFailed(paymentId(message));
        break;
      default:
        throw new IllegalArgumentException("not an order event: " + message.type());
    }
  }

  private String paymentId(InboxMessage message) {
    return json.readTree(message.payloadJson()).get("paymentId").asString();
  }
}
