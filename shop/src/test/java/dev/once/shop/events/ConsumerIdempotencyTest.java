package dev.once.shop.events;

import static dev.once.shop.support.EventDelivery.ORDERS;
import static dev.once.shop.support.EventDelivery.RELEASE_STOCK;
import static dev.once.shop.support.EventDelivery.RESERVE_STOCK;
import static dev.once.shop.support.OrderFixture.lines;
import static dev.once.test.OnceAssertions.assertThatConsumer;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.test.consumer.ConsumerTarget;
import dev.once.test.spring.OnceTestBeans;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * Every consumer of the shop, for every event type it takes, through once-test's consumer
 * assertion: the first delivery applies the effect, a delivery repeated twice, three times or
 * concurrently applies it once, two events out of order each apply once, and an effect rolled back
 * mid-way leaves nothing and applies once when delivered again.
 *
 * <p>Each consumer's effect happens once per order (or payment), so every scenario gets a fresh
 * order of its own, made over HTTP, and its real event, read from {@code once.outbox} ({@link
 * EventDelivery}; the relay is off in tests). Each probe reads only what the event moves: the stock
 * of a product of a client made for the test, or how many of that client's orders are in the state
 * the event puts them in. The kit takes each scenario's events from the supplier before it reads
 * the probe, so what the supplier does to make an event (for release-stock: reserve the unit it
 * then gives back) is not counted; a kit that read it first would see no effect and fail.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ConsumerIdempotencyTest extends ShopIntegrationTest {
  /** The product every order takes one unit of, with units enough for every scenario. */
  private static final String SKU = "P";

  /** A product with one unit: every order of two units is rejected. */
  private static final String SCARCE = "SCARCE";

  @Autowired private ApplicationContext context;
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
    shop.product(SKU, 1000);
    shop.product(SCARCE, 1);
  }

  @Test
  void reserveStockTakesTheUnitsOfAPlacedOrderOnce() {
    assertThatConsumer(consumer(RESERVE_STOCK))
        .isIdempotent(this::orderPlaced, () -> shop.stock(SKU).reserved());
  }

  @Test
  void ordersDecidesAReservedOrderOnce() {
    assertThatConsumer(consumer(ORDERS))
        .isIdempotent(
            () -> {
              String order = placedAndReserved();
              return events.event(order, ShopEvents.STOCK_RESERVED);
            },
            () -> ordersIn("reserved"));
  }

  @Test
  void ordersRejectsAnOrderOnce() {
    assertThatConsumer(consumer(ORDERS))
        .isIdempotent(
            () -> {
              String order = shop.place(account, lines(SCARCE, 2));
              events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
              return events.event(order, ShopEvents.STOCK_REJECTED);
            },
            () -> ordersIn("rejected"));
  }

  @Test
  void ordersMarksAnOrderPaidOnce() {
    assertThatConsumer(consumer(ORDERS))
        .isIdempotent(
            () -> settledPayment(PaymentStatus.SUCCEEDED, PaymentService.PAYMENT_SUCCEEDED),
            () -> ordersIn("paid"));
  }

  @Test
  void ordersFreesAnOrderWhosePaymentFailedOnce() {
    // The supplier's order counts once it is reserved and again not once it is being paid: only
    // payment.failed, which takes the failed payment off the order, moves the probe.
    assertThatConsumer(consumer(ORDERS))
        .isIdempotent(
            () -> settledPayment(PaymentStatus.FAILED, PaymentService.PAYMENT_FAILED),
            this::reservedOrdersWithoutPayment);
  }

  @Test
  void releaseStockGivesBackTheUnitsOfACancelledOrderOnce() {
    assertThatConsumer(consumer(RELEASE_STOCK))
        .isIdempotent(
            () -> {
              String order = shop.place(account, lines(SKU, 1));
              events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
              shop.cancel(order);
              return events.event(order, ShopEvents.ORDER_CANCELLED);
            },
            () -> shop.stock(SKU).reserved());
  }

  private ConsumerTarget consumer(String name) {
    return OnceTestBeans.consumer(context, name);
  }

  /** A new order of one unit, and its order.placed. */
  private InboxMessage orderPlaced() {
    String order = shop.place(account, lines(SKU, 1));
    return events.event(order, ShopEvents.ORDER_PLACED);
  }

  /** A new order of one unit whose order.placed reserve-stock applied (stock.reserved pending). */
  private String placedAndReserved() {
    String order = shop.place(account, lines(SKU, 1));
    events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
    return order;
  }

  /** A reserved order paid, the payment settled with {@code outcome}: the payment's event. */
  private InboxMessage settledPayment(PaymentStatus outcome, String type) {
    String order = placedAndReserved();
    events.deliver(ORDERS, order, ShopEvents.STOCK_RESERVED);
    String payment = shop.pay(order);
    payments.settle(payment, outcome);
    return events.event(payment, type);
  }

  private long ordersIn(String status) {
    return jdbc.sql("SELECT count(*) FROM orders WHERE client_id = :c AND status = :s")
        .param("c", client.id())
        .param("s", status)
        .query(Long.class)
        .single();
  }

  private long reservedOrdersWithoutPayment() {
    return jdbc.sql(
            """
            SELECT count(*) FROM orders
            WHERE client_id = :c AND status = 'reserved' AND payment_id IS NULL
            """)
        .param("c", client.id())
        .query(Long.class)
        .single();
  }
}
