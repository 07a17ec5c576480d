package dev.once.shop.orders;

import dev.once.shop.accounts.Money;
import dev.once.shop.clients.AuthenticatedClient;
import dev.once.shop.events.ShopEvents.Line;
import dev.once.shop.openapi.CreatedAt;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.payments.Payment;
import dev.once.shop.payments.PaymentView;
import dev.once.shop.persistence.Text;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import dev.once.shop.stock.Sku;
import dev.once.spring.web.Idempotent;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.math.BigInteger;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/orders}: place, read, pay and cancel orders. Every POST needs an Idempotency-Key
 * ({@link Idempotent}).
 */
@Idempotent
@RestController
@RequestMapping(path = "/v1/orders", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "orders", description = "Orders, their stock reservation, payment and cancellation")
@SecurityRequirement(name = OpenApiConfiguration.API_KEY_SCHEME)
class OrderController {
  static final int MAX_ITEMS = 100;
  static final long MAX_QUANTITY = 1_000_000L;
  static final int MAX_ID_LENGTH = 100;

  private final OrderService orders;

  OrderController(OrderService orders) {
    this.orders = orders;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "placeOrder",
      summary = "Place an order; its stock is reserved shortly after, by an event consumer",
      description =
          "Records the order as `placed`, at the products' current prices, and publishes"
              + " `order.placed` in the same transaction. Its stock is reserved after the commit:"
              + " the order becomes `reserved` (all lines held) or `rejected` (a line is short,"
              + " nothing held); poll GET to see which. A retry under the same `Idempotency-Key`"
              + " gets the same order.")
  @CreatedAt
  @Problems({
    ShopProblem.ACCOUNT_NOT_FOUND,
    ShopProblem.UNKNOWN_PRODUCT,
    ShopProblem.CURRENCY_MISMATCH,
    ShopProblem.AMOUNT_OUT_OF_RANGE,
    ShopProblem.OUTBOX_OVERLOADED
  })
  ResponseEntity<OrderView> place(
      AuthenticatedClient client, @Valid @RequestBody PlaceRequest body) {
    Set<String> skus = new HashSet<>();
    for (int i = 0; i < body.items().size(); i++) {
      if (!skus.add(body.items().get(i).sku())) {
        throw new InvalidRequestException(
            ShopProblem.VALIDATION_FAILED,
            "items[" + i + "].sku",
            "Sku '"
                + body.items().get(i).sku()
                + "' appears more than once; give each product one line with its total quantity.");
      }
    }
    List<Line> lines =
        body.items().stream()
            .map(item -> new Line(item.sku(), item.quantity().longValueExact()))
            .toList();
    Order order = orders.place(client.id(), body.accountId(), lines);
    return ResponseEntity.created(URI.create("/v1/orders/" + order.id())).body(OrderView.of(order));
  }

  @GetMapping("/{id}")
  @Operation(
      operationId = "getOrder",
      summary = "Read an order",
      description =
          "`status` moves placed → reserved or rejected; reserved → paid or cancelled; paid →"
              + " cancelled (refunded); placed → cancelled.")
  @Problems(ShopProblem.ORDER_NOT_FOUND)
  OrderView get(AuthenticatedClient client, @PathVariable String id) {
    return OrderView.of(orders.get(client.id(), id));
  }

  @PostMapping("/{id}/pay")
  @Operation(
      operationId = "payOrder",
      summary = "Pay a reserved order: a payment of its total, sent to the provider",
      description =
          "Charges the order's account its total, as POST /v1/payments does, and answers the"
              + " payment; `Location` is the payment's address. The order becomes `paid` when"
              + " the provider accepts; a decline leaves it `reserved`, to be paid again. Only a"
              + " `reserved` order without a pending payment can be paid. No body.")
  @CreatedAt
  @Problems({
    ShopProblem.ORDER_NOT_FOUND,
    ShopProblem.INSUFFICIENT_FUNDS,
    ShopProblem.INVALID_ORDER_STATE,
    ShopProblem.OUTBOX_OVERLOADED
  })
  ResponseEntity<PaymentView> pay(AuthenticatedClient client, @PathVariable String id) {
    Payment payment = orders.pay(client.id(), id);
    return ResponseEntity.created(URI.create("/v1/payments/" + payment.id()))
        .body(PaymentView.of(payment));
  }

  @PostMapping("/{id}/cancel")
  @Operation(
      operationId = "cancelOrder",
      summary = "Cancel an order: its stock comes back, a paid order is refunded in full",
      description =
          "Cancels a placed, reserved or paid order and answers it. Its held stock is released"
              + " shortly after, by an event consumer; a paid order is refunded what is not"
              + " refunded yet. An order whose payment is still pending cannot be cancelled until"
              + " the provider has answered. No body.")
  @Problems({
    ShopProblem.ORDER_NOT_FOUND,
    ShopProblem.INVALID_ORDER_STATE,
    ShopProblem.OUTBOX_OVERLOADED
  })
  OrderView cancel(AuthenticatedClient client, @PathVariable String id) {
    return OrderView.of(orders.cancel(client.id(), id));
  }

  /** Body of an order: distinct skus, each with a JSON integer quantity. */
  @Schema(name = "PlaceOrderRequest")
  record PlaceRequest(
      @NotNull @Text(max = MAX_ID_LENGTH) @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w")
          String accountId,
      @NotNull @Size(min = 1, max = MAX_ITEMS) List<@NotNull @Valid ItemRequest> items) {}

  /** A line of an order's body. */
  @Schema(name = "OrderItemRequest")
  record ItemRequest(
      @NotNull @Sku.Code @Schema(example = "TEA-GREEN-100") String sku,
      @NotNull @Min(1) @Max(MAX_QUANTITY) @Schema(example = "2") BigInteger quantity) {}

  /** An order on the wire. */
  @Schema(name = "Order")
  record OrderView(
      @Schema(example = "ord_M4fR8tY1uI6oP3aS9dF2gH") String id,
      @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w") String accountId,
      @Schema(
              example = "placed",
              allowableValues = {"placed", "reserved", "rejected", "paid", "cancelled"})
          String status,
      List<ItemView> items,
      @Schema(example = "8.4000", description = "The sum of the lines") String total,
      @Schema(example = "EUR") String currency,
      @Schema(nullable = true, description = "The order's latest payment") String paymentId,
      @Schema(nullable = true, description = "The refund of a cancelled paid order")
          String refundId,
      @Schema(example = "2026-12-01T13:05:44.120Z", format = "date-time") String createdAt,
      @Schema(
              nullable = true,
              format = "date-time",
              description = "When the stock was reserved or rejected")
          String reservedAt) {
    static OrderView of(Order order) {
      return new OrderView(
          order.id(),
          order.accountId(),
          order.status().wireName(),
          order.items().stream().map(ItemView::of).toList(),
          Money.format(order.total()),
          order.currency(),
          order.paymentId().orElse(null),
          order.refundId().orElse(null),
          order.createdAt().toString(),
          order.reservedAt().map(Object::toString).orElse(null));
    }
  }

  /** A line of an order on the wire; {@code price} is the unit price when it was placed. */
  @Schema(name = "OrderItem")
  record ItemView(
      @Schema(example = "TEA-GREEN-100") String sku,
      @Schema(example = "2") long quantity,
      @Schema(example = "4.2000", description = "The unit price when the order was placed")
          String price) {
    static ItemView of(Order.Item item) {
      return new ItemView(item.sku(), item.quantity(), Money.format(item.price()));
    }
  }
}
