package dev.once.shop.orders;

import static dev.once.shop.support.EventDelivery.ORDERS;
import static dev.once.shop.support.EventDelivery.RELEASE_STOCK;
import static dev.once.shop.support.EventDelivery.RESERVE_STOCK;
import static dev.once.shop.support.OrderFixture.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.problems.ShopProblem;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.OrderFixture.Stock;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code MarkPaid} on stored orders, through {@link OrderService#markPaid(String, String, String)}
 * and through the payment.succeeded path: the same payment twice is a no-op, another payment and
 * every other state are refused with invalid-order-state, and a refusal changes nothing.
 */
class MarkPaidTest extends ShopIntegrationTest {
  @Autowired private OrderService orders;
  @Autowired private PaymentService payments;
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;

  private EventDelivery events;
  private OrderFixture shop;
  private TestClient client;
  private String account;

  @BeforeEach
  void shopWithStock() {
    events = new EventDelivery(jdbc, inbox, consumers);
    client = newClient();
    shop = new OrderFixture(client, jdbc);
    account = client.openAccountWith("EUR", "100");
    shop.product("A", 3);
  }

  @Test
  void theSamePaymentTwiceIsANoOp() {
    String order = reservedOrder();
    String payment = shop.pay(order);

    assertThat(orders.markPaid(client.id(), order, payment)).isTrue();
    String row = row(order);
    assertThat(orders.markPaid(client.id(), order, payment)).isFalse();
    assertThat(orders.markPaid(payment)).as("the event path too").isFalse();

    assertThat(row(order)).isEqualTo(row).contains("paid", payment);
    assertThat(client.get("/v1/orders/" + order).text("status")).isEqualTo("paid");
  }

  @Test
  void anotherPaymentIsRefusedOnAPaidOrder() {
    String order = reservedOrder();
    String payment = shop.pay(order);
    orders.markPaid(client.id(), order, payment);
    String other = client.pay(account, "1", "EUR").text("id");
    String row = row(order);

    refused(order, other, OrderStatus.PAID);
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void anotherPaymentIsRefusedWhileThisOneIsPending() {
    String order = reservedOrder();
    String payment = shop.pay(order);
    String other = client.pay(account, "1", "EUR").text("id");
    String row = row(order);

    refused(order, other, OrderStatus.RESERVED);
    assertThat(row(order)).isEqualTo(row).contains("reserved", payment);
    // A payment that pays no order is not MarkPaid's business: nothing happens.
    assertThat(orders.markPaid(other)).isFalse();
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void aReservedOrderWithNoPaymentPendingIsRefused() {
    String order = reservedOrder();
    String stray = client.pay(account, "1", "EUR").text("id");
    String row = row(order);

    refused(order, stray, OrderStatus.RESERVED);
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void aPlacedOrderIsRefused() {
    String order = shop.place(account, lines("A", 1));
    String stray = client.pay(account, "1", "EUR").text("id");
    String row = row(order);

    refused(order, stray, OrderStatus.PLACED);
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void aRejectedOrderIsRefused() {
    String order = shop.place(account, lines("A", 4));
    events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
    events.deliver(ORDERS, order, ShopEvents.STOCK_REJECTED);
    assertThat(shop.status(order)).isEqualTo("rejected");
    String stray = client.pay(account, "1", "EUR").text("id");
    String row = row(order);

    refused(order, stray, OrderStatus.REJECTED);
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void aCancelledOrderIsRefusedEvenForThePaymentThatPaidIt() {
    String order = reservedOrder();
    String payment = shop.pay(order);
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    assertThat(events.deliver(ORDERS, payment, PaymentService.PAYMENT_SUCCEEDED)).isTrue();
    shop.cancel(order);
    events.deliver(RELEASE_STOCK, order, ShopEvents.ORDER_CANCELLED);
    String row = row(order);

    refused(order, payment, OrderStatus.CANCELLED);
    assertThatThrownBy(() -> orders.markPaid(payment))
        .isInstanceOf(InvalidOrderStateException.class);
    assertThat(row(order)).isEqualTo(row).contains("cancelled");
    assertThat(shop.stock("A")).isEqualTo(new Stock(3, 0));
  }

  @Test
  void paymentSucceededMarksTheOrderItPaysPaidOnce() {
    String order = reservedOrder();
    String payment = shop.pay(order);
    payments.settle(payment, PaymentStatus.SUCCEEDED);

    assertThat(orders.markPaid(payment)).isTrue();
    String row = row(order);
    assertThat(orders.markPaid(payment)).isFalse();
    assertThat(events.deliver(ORDERS, payment, PaymentService.PAYMENT_SUCCEEDED))
        .as("the event after the direct call: applied by the inbox, a no-op for the order")
        .isTrue();

    assertThat(row(order)).isEqualTo(row).contains("paid", payment);
    assertThat(client.balance(account)).isEqualTo("99.0000");
    assertThat(shop.stock("A")).isEqualTo(new Stock(2, 1));
  }

  @Test
  void aPaymentSucceededForNoOrderChangesNothing() {
    String order = reservedOrder();
    String row = row(order);
    String plain = client.pay(account, "5", "EUR").text("id");
    payments.settle(plain, PaymentStatus.SUCCEEDED);
    assertThat(events.count(plain, PaymentService.PAYMENT_SUCCEEDED))
        .as("no order waits for it: nothing published")
        .isZero();

    // As published before payments knew their order: the consumer finds no order to move.
    InboxMessage earlier =
        new InboxMessage(
            UUID.randomUUID(),
            PaymentService.PAYMENT_SUCCEEDED,
            plain,
            "{\"paymentId\":\""
                + plain
                + "\",\"accountId\":\""
                + account
                + "\",\"amount\":\"5.0000\",\"currency\":\"EUR\",\"status\":\"succeeded\"}");
    assertThat(events.deliver(ORDERS, earlier)).isTrue();
    assertThat(row(order)).isEqualTo(row);
  }

  @Test
  void anUnknownOrForeignOrderIsNotFound() {
    String order = reservedOrder();
    String payment = shop.pay(order);
    TestClient stranger = newClient();

    for (String[] call :
        new String[][] {{client.id(), "ord_unknown0000000000000"}, {stranger.id(), order}}) {
      assertThatThrownBy(() -> orders.markPaid(call[0], call[1], payment))
          .isInstanceOfSatisfying(
              dev.once.shop.problems.NotFoundException.class,
              e -> assertThat(e.problem()).isEqualTo(ShopProblem.ORDER_NOT_FOUND));
    }
    assertThat(shop.status(order)).isEqualTo("reserved");
  }

  private void refused(String order, String payment, OrderStatus status) {
    assertThatThrownBy(() -> orders.markPaid(client.id(), order, payment))
        .isInstanceOfSatisfying(
            InvalidOrderStateException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.problem()).isEqualTo(ShopProblem.INVALID_ORDER_STATE);
              assertThat(e.getStatusCode().value()).isEqualTo(422);
            });
  }

  private String reservedOrder() {
    String order = shop.place(account, lines("A", 1));
    events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
    events.deliver(ORDERS, order, ShopEvents.STOCK_RESERVED);
    assertThat(shop.status(order)).isEqualTo("reserved");
    return order;
  }

  /** The order's row as text: any write changes at least updated_at. */
  private String row(String order) {
    return jdbc.sql("SELECT o::text FROM orders o WHERE id = :id")
        .param("id", order)
        .query(String.class)
        .single();
  }
}
