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
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.OrderFixture.Stock;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every event of the order flow delivered again as a copy with a new message id (the inbox cannot
 * recognize it, so only the business rules keep the effect single), late, after the events that
 * follow it, and out of order between event types: stock moves once, comes back once, and the order
 * ends in the right status. An event delivered again with the same message id (twice, three times,
 * concurrently), two orders' events out of order and an effect rolled back mid-way are {@code
 * events.ConsumerIdempotencyTest}'s, through once-test, for every consumer and event type.
 */
class OrderEventsTest extends ShopIntegrationTest {
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;
  @Autowired private PaymentService payments;

  private EventDelivery events;
  private OrderFixture shop;
  private TestClient client;
  private String account;

  @BeforeEach
  void shopWithStock() {
    events = new EventDelivery(jdbc, inbox, consumers);
    client = newClient();
    shop = new OrderFixture(client, jdbc);
    account = client.openAccountWith("EUR", "1000");
    shop.product("A", 10);
    shop.product("B", 5);
  }

  @Test
  void orderPlacedAsACopyReservesNothingMoreAndRepublishesTheDecision() {
    String order = shop.place(account, lines("B", 3, "A", 2));
    InboxMessage placed = events.event(order, ShopEvents.ORDER_PLACED);

    assertThat(events.deliver(RESERVE_STOCK, placed)).isTrue();
    InboxMessage copy = EventDelivery.copy(placed);
    assertThat(events.deliver(RESERVE_STOCK, copy)).as("a new message id is applied").isTrue();

    assertThat(shop.stock("A")).isEqualTo(new Stock(8, 2));
    assertThat(shop.stock("B")).isEqualTo(new Stock(2, 3));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "held", "B", "held"));
    assertThat(events.inboxRecords(RESERVE_STOCK, placed.messageId())).isEqualTo(1);
    assertThat(events.inboxRecords(RESERVE_STOCK, copy.messageId())).isEqualTo(1);
    // The copy republishes the decision taken before, and nothing else.
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isEqualTo(2);
    assertThat(events.count(order, ShopEvents.STOCK_REJECTED)).isZero();
    assertThat(shop.status(order)).isEqualTo("placed");
  }

  @Test
  void stockReservedAsACopyMovesTheOrderOnce() {
    String order = shop.place(account, lines("A", 1));
    events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
    InboxMessage reserved = events.event(order, ShopEvents.STOCK_RESERVED);

    assertThat(events.deliver(ORDERS, reserved)).isTrue();
    OffsetDateTime reservedAt = reservedAt(order);
    assertThat(events.deliver(ORDERS, EventDelivery.copy(reserved))).isTrue();

    assertThat(shop.status(order)).isEqualTo("reserved");
    assertThat(reservedAt).isNotNull();
    assertThat(reservedAt(order)).as("reserved_at set once").isEqualTo(reservedAt);
    assertThat(shop.stock("A")).isEqualTo(new Stock(9, 1));
  }

  @Test
  void stockRejectedAsACopyRejectsOnceAndALateCopyOfThePlacementTakesNothing() {
    String order = shop.place(account, lines("A", 4, "B", 6));
    InboxMessage placed = events.event(order, ShopEvents.ORDER_PLACED);

    events.deliver(RESERVE_STOCK, placed);
    InboxMessage rejected = events.event(order, ShopEvents.STOCK_REJECTED);
    assertThat(rejected.payloadJson().replace(" ", "")).contains("\"shortSkus\":[\"B\"]");
    assertThat(events.deliver(ORDERS, rejected)).isTrue();
    events.deliver(ORDERS, EventDelivery.copy(rejected));

    assertThat(shop.status(order)).isEqualTo("rejected");
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "rejected", "B", "rejected"));
    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(5, 0));

    // Enough stock now: a late copy of order.placed still finds the decision taken.
    client.post("/v1/products/B/restock", "{\"quantity\":10}").assertStatus(200);
    events.deliver(RESERVE_STOCK, EventDelivery.copy(placed));

    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(15, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "rejected", "B", "rejected"));
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isZero();
    assertThat(shop.status(order)).isEqualTo("rejected");
  }

  @Test
  void aCancellationDeliveredAsCopiesRestoresStockOnce() {
    String order = reservedOrder(lines("A", 3, "B", 5));
    assertThat(shop.stock("B")).isEqualTo(new Stock(0, 5));

    cancel(order);
    InboxMessage cancelled = events.event(order, ShopEvents.ORDER_CANCELLED);
    assertThat(shop.stock("A")).as("nothing moves before the event").isEqualTo(new Stock(7, 3));

    assertThat(events.deliver(RELEASE_STOCK, cancelled)).isTrue();
    assertThat(events.deliver(RELEASE_STOCK, EventDelivery.copy(cancelled))).isTrue();
    assertThat(events.deliver(RELEASE_STOCK, EventDelivery.copy(cancelled))).isTrue();

    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "released", "B", "released"));
    assertThat(shop.status(order)).isEqualTo("cancelled");

    // A late order.placed, copied, after the release: nothing is taken again.
    events.deliver(RESERVE_STOCK, EventDelivery.copy(events.event(order, ShopEvents.ORDER_PLACED)));
    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "released", "B", "released"));
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isEqualTo(1);
  }

  @Test
  void aCancellationBeforeThePlacementMeansNothingIsEverReserved() {
    String order = shop.place(account, lines("A", 2, "B", 1));
    cancel(order);
    InboxMessage placed = events.event(order, ShopEvents.ORDER_PLACED);
    InboxMessage cancelled = events.event(order, ShopEvents.ORDER_CANCELLED);

    assertThat(events.deliver(RELEASE_STOCK, cancelled)).isTrue();
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "void", "B", "void"));
    assertThat(events.deliver(RESERVE_STOCK, placed)).isTrue();
    assertThat(events.deliver(RESERVE_STOCK, placed)).isFalse();
    assertThat(events.deliver(RESERVE_STOCK, EventDelivery.copy(placed))).isTrue();
    events.deliver(RELEASE_STOCK, EventDelivery.copy(cancelled));

    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "void", "B", "void"));
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isZero();
    assertThat(events.count(order, ShopEvents.STOCK_REJECTED)).isZero();
    assertThat(shop.status(order)).isEqualTo("cancelled");
  }

  @Test
  void stockReservedAfterTheCancellationLeavesTheOrderCancelled() {
    String order = shop.place(account, lines("A", 4));
    events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
    assertThat(shop.stock("A")).isEqualTo(new Stock(6, 4));
    cancel(order); // still placed: the orders consumer has not seen stock.reserved yet

    InboxMessage reserved = events.event(order, ShopEvents.STOCK_RESERVED);
    assertThat(events.deliver(ORDERS, reserved)).isTrue();
    events.deliver(ORDERS, EventDelivery.copy(reserved));
    assertThat(shop.status(order)).isEqualTo("cancelled");
    assertThat(reservedAt(order)).isNull();

    events.deliver(RELEASE_STOCK, order, ShopEvents.ORDER_CANCELLED);
    events.deliver(ORDERS, EventDelivery.copy(reserved));

    assertThat(shop.status(order)).isEqualTo("cancelled");
    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "released"));
  }

  @Test
  void paymentSucceededAsACopyWritesNothing() {
    String order = reservedOrder(lines("A", 2));
    String payment = pay(order);
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    InboxMessage succeeded = events.event(payment, PaymentService.PAYMENT_SUCCEEDED);

    assertThat(events.deliver(ORDERS, succeeded)).isTrue();
    String updatedAt = updatedAt(order);
    assertThat(events.deliver(ORDERS, EventDelivery.copy(succeeded))).isTrue();

    assertThat(shop.status(order)).isEqualTo("paid");
    assertThat(shop.paymentId(order)).isEqualTo(payment);
    assertThat(updatedAt(order)).as("the copy wrote nothing").isEqualTo(updatedAt);
    assertThat(client.balance(account)).isEqualTo("998.0000");
    assertThat(shop.stock("A")).isEqualTo(new Stock(8, 2));
  }

  @Test
  void paymentFailedThenLateDuplicatesDoNotTouchTheNextPayment() {
    String order = reservedOrder(lines("A", 2));
    String first = pay(order);
    payments.settle(first, PaymentStatus.FAILED);
    InboxMessage failed = events.event(first, PaymentService.PAYMENT_FAILED);

    assertThat(events.deliver(ORDERS, failed)).isTrue();
    assertThat(shop.status(order)).isEqualTo("reserved");
    assertThat(shop.paymentId(order)).isNull();
    String second = pay(order);

    assertThat(events.deliver(ORDERS, failed)).isFalse();
    assertThat(events.deliver(ORDERS, EventDelivery.copy(failed))).isTrue();
    assertThat(shop.paymentId(order)).as("the second payment still pending").isEqualTo(second);

    payments.settle(second, PaymentStatus.SUCCEEDED);
    events.deliver(ORDERS, second, PaymentService.PAYMENT_SUCCEEDED);
    events.deliver(ORDERS, EventDelivery.copy(failed));

    assertThat(shop.status(order)).isEqualTo("paid");
    assertThat(shop.paymentId(order)).isEqualTo(second);
    assertThat(client.balance(account))
        .as("charged once, the declined charge reversed")
        .isEqualTo("998.0000");
    assertThat(shop.stock("A")).isEqualTo(new Stock(8, 2));
  }

  @Test
  void aPaidOrderCancelledRefundsAndReleasesOnceWhateverIsRedelivered() {
    String order = reservedOrder(lines("A", 2, "B", 1));
    String payment = pay(order);
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    InboxMessage succeeded = events.event(payment, PaymentService.PAYMENT_SUCCEEDED);
    events.deliver(ORDERS, succeeded);
    String refund = cancel(order).text("refundId");
    assertThat(refund).isNotNull();
    // Credited when the provider confirms the refund, once.
    assertThat(client.balance(account)).isEqualTo("997.0000");
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("1000.0000");

    InboxMessage cancelled = events.event(order, ShopEvents.ORDER_CANCELLED);
    events.deliver(RELEASE_STOCK, cancelled);
    events.deliver(RELEASE_STOCK, cancelled);
    events.deliver(RELEASE_STOCK, EventDelivery.copy(cancelled));
    assertThat(events.deliver(ORDERS, succeeded)).isFalse();
    events.deliver(ORDERS, EventDelivery.copy(events.event(order, ShopEvents.STOCK_RESERVED)));
    // MarkPaid refuses every state but reserved-with-this-payment and paid-by-it (the design
    // note): a success copied after the cancellation fails and is left for an operator.
    InboxMessage lateCopy = EventDelivery.copy(succeeded);
    assertThatThrownBy(() -> events.deliver(ORDERS, lateCopy))
        .isInstanceOf(InvalidOrderStateException.class);
    assertThat(events.inboxRecords(ORDERS, lateCopy.messageId())).isZero();

    assertThat(shop.status(order)).isEqualTo("cancelled");
    assertThat(client.get("/v1/orders/" + order).text("refundId")).isEqualTo(refund);
    assertThat(client.balance(account)).as("refunded once").isEqualTo("1000.0000");
    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.stock("B")).isEqualTo(new Stock(5, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("A", "released", "B", "released"));
    assertThat(events.count(order, ShopEvents.ORDER_CANCELLED)).isEqualTo(1);
  }

  @Test
  void theWholeFlowLeavesOneInboxRecordPerEventAndConsumer() {
    String order = reservedOrder(lines("A", 1));
    String payment = pay(order);
    payments.settle(payment, PaymentStatus.SUCCEEDED);
    events.deliver(ORDERS, payment, PaymentService.PAYMENT_SUCCEEDED);
    cancel(order);
    events.deliver(RELEASE_STOCK, order, ShopEvents.ORDER_CANCELLED);

    // Everything delivered again: every repeat is an inbox duplicate.
    assertThat(events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED)).isFalse();
    assertThat(events.deliver(ORDERS, order, ShopEvents.STOCK_RESERVED)).isFalse();
    assertThat(events.deliver(ORDERS, payment, PaymentService.PAYMENT_SUCCEEDED)).isFalse();
    assertThat(events.deliver(RELEASE_STOCK, order, ShopEvents.ORDER_CANCELLED)).isFalse();

    for (Object[] expected :
        new Object[][] {
          {order, ShopEvents.ORDER_PLACED, RESERVE_STOCK},
          {order, ShopEvents.STOCK_RESERVED, ORDERS},
          {payment, PaymentService.PAYMENT_SUCCEEDED, ORDERS},
          {order, ShopEvents.ORDER_CANCELLED, RELEASE_STOCK}
        }) {
      InboxMessage event = events.event((String) expected[0], (String) expected[1]);
      assertThat(events.inboxRecords((String) expected[2], event.messageId()))
          .as("%s records of %s", expected[2], expected[1])
          .isEqualTo(1);
    }
    assertThat(shop.stock("A")).isEqualTo(new Stock(10, 0));
    assertThat(shop.status(order)).isEqualTo("cancelled");
  }

  /** Places an order and delivers its order.placed and stock.reserved: a reserved order. */
  private String reservedOrder(Map<String, Long> lines) {
    String order = shop.place(account, lines);
    assertThat(events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED)).isTrue();
    assertThat(events.deliver(ORDERS, order, ShopEvents.STOCK_RESERVED)).isTrue();
    assertThat(shop.status(order)).isEqualTo("reserved");
    return order;
  }

  private String pay(String order) {
    String payment = shop.pay(order);
    assertThat(shop.paymentId(order)).isEqualTo(payment);
    return payment;
  }

  private dev.once.shop.support.ShopResponse cancel(String order) {
    return shop.cancel(order);
  }

  private OffsetDateTime reservedAt(String order) {
    return jdbc.sql("SELECT reserved_at FROM orders WHERE id = :id")
        .param("id", order)
        .query((rs, row) -> rs.getObject(1, OffsetDateTime.class))
        .list()
        .get(0);
  }

  private String updatedAt(String order) {
    return jdbc.sql("SELECT updated_at::text FROM orders WHERE id = :id")
        .param("id", order)
        .query(String.class)
        .single();
  }
}
