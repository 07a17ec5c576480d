package dev.once.shop.orders;

import dev.once.shop.accounts.Account;
import dev.once.shop.accounts.AccountService;
import dev.once.shop.accounts.CurrencyMismatchException;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.Line;
import dev.once.shop.payments.Payment;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.Refund;
import dev.once.shop.persistence.Ids;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import dev.once.shop.stock.Product;
import dev.once.shop.stock.StockService;
import dev.once.spring.events.OnceEvents;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Orders: placing, paying and cancelling them over HTTP, and applying the stock's and the
 * provider's answers that arrive as events. Each public method is one transaction (joined to the
 * request's or the inbox's): the order's change, the payment or refund it makes and the events it
 * publishes commit together or not at all. Thread-safe; changes of one order serialize on its row
 * lock, taken before its payment's and its account's.
 */
@Service
public class OrderService {
  /** The largest order total: what a payment can charge (16 integer digits). */
  static final BigDecimal MAX_TOTAL = new BigDecimal("9999999999999999.9999");

  private final OrderRepository orders;
  private final StockService stock;
  private final AccountService accounts;
  private final PaymentService payments;
  private final OnceEvents events;
  private final JsonMapper json;
  private final Clock clock;

  OrderService(
      OrderRepository orders,
      StockService stock,
      AccountService accounts,
      PaymentService payments,
      OnceEvents events,
      JsonMapper json,
      Clock clock) {
    this.orders = orders;
    this.stock = stock;
    this.accounts = accounts;
    this.payments = payments;
    this.events = events;
    this.json = json;
    this.clock = clock;
  }

  /**
   * Places an order for {@code lines} (distinct skus, positive quantities) at the products' current
   * prices, and publishes {@value ShopEvents#ORDER_PLACED} with it.
   *
   * @throws InvalidRequestException {@code unknown-product} naming the first unknown line, or
   *     {@code amount-out-of-range} if the total is larger than a payment can be
   * @throws CurrencyMismatchException if the products' currencies differ from each other or from
   *     the account's
   * @throws NotFoundException {@code account-not-found}, also for another client's account
   */
  @Transactional
  public Order place(String client, String accountId, List<Line> lines) {
    if (!Ids.isWellFormed(Ids.ACCOUNT, accountId)) {
      throw AccountService.accountNotFound();
    }
    Map<String, Product> products = stock.products(client, lines.stream().map(Line::sku).toList());
    List<Map<String, Object>> priced = new ArrayList<>();
    List<Order.Item> items = new ArrayList<>();
    BigDecimal total = BigDecimal.ZERO;
    String currency = null;
    for (int i = 0; i < lines.size(); i++) {
      Line line = lines.get(i);
      Product product = products.get(line.sku());
      if (product == null) {
        throw new InvalidRequestException(
            ShopProblem.UNKNOWN_PRODUCT,
            "items[" + i + "].sku",
            "No product with sku '" + line.sku() + "' exists for this client.");
      }
      if (currency != null && !currency.equals(product.currency())) {
        throw new InvalidRequestException(
            ShopProblem.CURRENCY_MISMATCH,
            "items[" + i + "].sku",
            "The products of one order must share a currency; '"
                + line.sku()
                + "' is priced in "
                + product.currency()
                + ", the lines before it in "
                + currency
                + ".");
      }
      currency = product.currency();
      total = total.add(product.price().multiply(BigDecimal.valueOf(line.quantity())));
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("sku", line.sku());
      row.put("quantity", line.quantity());
      row.put("price", product.price().toPlainString());
      priced.add(row);
      items.add(new Order.Item(line.sku(), line.quantity(), product.price()));
    }
    if (total.compareTo(MAX_TOTAL) > 0) {
      throw new InvalidRequestException(
          ShopProblem.AMOUNT_OUT_OF_RANGE,
          "items",
          "The order's total is larger than a payment can be (16 integer digits).");
    }
    String id = Ids.next(Ids.ORDER);
    Instant now = Timestamps.now(clock);
    if (!orders.place(
        client, id, accountId, total, currency, json.writeValueAsString(priced), now)) {
      throw whyNotPlaced(client, accountId, currency);
    }
    events.publish(id, new ShopEvents.OrderPlaced(id, client, List.copyOf(lines)));
    items.sort(Comparator.comparing(Order.Item::sku));
    return new Order(
        id,
        accountId,
        OrderStatus.PLACED,
        items,
        total,
        currency,
        Optional.empty(),
        Optional.empty(),
        now,
        Optional.empty());
  }

  /**
   * The client's order.
   *
   * @throws NotFoundException {@code order-not-found}, also for another client's order and for a
   *     malformed id
   */
  public Order get(String client, String orderId) {
    if (!Ids.isWellFormed(Ids.ORDER, orderId)) {
      throw orderNotFound();
    }
    return orders.find(client, orderId).orElseThrow(OrderService::orderNotFound);
  }

  /**
   * Pays a reserved order: charges its total from its account as a payment (sent to the provider
   * after commit) that the order then waits for.
   *
   * @throws NotFoundException {@code order-not-found}
   * @throws InvalidOrderStateException unless the order is reserved with no payment pending
   * @throws dev.once.shop.accounts.InsufficientFundsException if the account is short
   */
  @Transactional
  public Payment pay(String client, String orderId) {
    Order order = lock(client, orderId);
    order.checkPayable();
    Payment payment =
        payments.createForOrder(
            client,
            order.id(),
            order.accountId(),
            order.total(),
            order.currency(),
            Optional.of("Order " + order.id()));
    if (!orders.setPayment(order.id(), payment.id(), Timestamps.now(clock))) {
      throw new IllegalStateException(order.id() + " changed under its row lock");
    }
    return payment;
  }

  /**
   * Cancels an order, publishing {@value ShopEvents#ORDER_CANCELLED} so that its stock is released;
   * a paid order's payment is refunded in full (what is not refunded yet) in the same transaction.
   *
   * @throws NotFoundException {@code order-not-found}
   * @throws InvalidOrderStateException if the order is rejected, cancelled, or has a payment
   *     pending
   */
  @Transactional
  public Order cancel(String client, String orderId) {
    Order order = lock(client, orderId);
    Optional<String> refund = Optional.empty();
    if (order.checkCancellable()) {
      String paymentId = order.paymentId().orElseThrow();
      Payment payment = payments.get(client, paymentId);
      BigDecimal unrefunded = payment.amount().subtract(payment.refunded());
      if (unrefunded.signum() > 0) {
        Refund made = payments.refundThroughOrder(client, paymentId, unrefunded);
        refund = Optional.of(made.id());
      }
    }
    if (!orders.cancel(order.id(), refund, Timestamps.now(clock))) {
      throw new IllegalStateException(order.id() + " changed under its row lock");
    }
    List<Line> lines =
        order.items().stream().map(item -> new Line(item.sku(), item.quantity())).toList();
    events.publish(order.id(), new ShopEvents.OrderCancelled(order.id(), client, lines));
    return order.cancelled(refund);
  }

  /**
   * Applies the stock's answer to a placed order: {@code reserved} or {@code rejected}. An order
   * that is no longer placed (decided before, or cancelled) does not change.
   *
   * @return whether the order changed
   */
  @Transactional
  public boolean decide(String orderId, boolean reserved) {
    return orders.decide(
        orderId, reserved ? OrderStatus.RESERVED : OrderStatus.REJECTED, Timestamps.now(clock));
  }

  /**
   * {@code MarkPaid(paymentId)} on the order the payment pays ({@link Order#markPaid}).
   *
   * @return whether the order moved to paid; false if it already was paid by this payment, or no
   *     order waits for this payment (a payment made through {@code /v1/payments})
   * @throws InvalidOrderStateException if the order is in any other state
   */
  @Transactional
  public boolean markPaid(String paymentId) {
    Optional<Order> order = orders.lockByPayment(paymentId);
    if (order.isEmpty() || !order.get().markPaid(paymentId)) {
      return false;
    }
    return orders.markPaid(order.get().id(), paymentId, Timestamps.now(clock));
  }

  /**
   * {@code MarkPaid} on a given order, for callers that know it (and the tests of its rules).
   *
   * @throws NotFoundException {@code order-not-found}
   * @throws InvalidOrderStateException as {@link Order#markPaid}
   */
  @Transactional
  public boolean markPaid(String client, String orderId, String paymentId) {
    Order order = lock(client, orderId);
    return order.markPaid(paymentId)
        && orders.markPaid(order.id(), paymentId, Timestamps.now(clock));
  }

  /**
   * A declined payment releases the order from waiting for it: the order stays reserved and can be
   * paid again.
   *
   * @return whether an order was waiting for this payment
   */
  @Transactional
  public boolean paymentFailed(String paymentId) {
    return orders.clearPayment(paymentId, Timestamps.now(clock));
  }

  private Order lock(String client, String orderId) {
    if (!Ids.isWellFormed(Ids.ORDER, orderId)) {
      throw orderNotFound();
    }
    return orders.lock(client, orderId).orElseThrow(OrderService::orderNotFound);
  }

  /** Why the order's insert wrote nothing; read only on that failure path. */
  private RuntimeException whyNotPlaced(String client, String accountId, String currency) {
    Account account;
    try {
      account = accounts.get(client, accountId);
    } catch (NotFoundException e) {
      return e;
    }
    return new CurrencyMismatchException(accountId, account.currency(), currency);
  }

  static NotFoundException orderNotFound() {
    return new NotFoundException(
        ShopProblem.ORDER_NOT_FOUND, "No order with this id exists for this client.");
  }
}
