package dev.once.shop.payments;

import dev.once.shop.accounts.Money;
import dev.once.shop.clients.AuthenticatedClient;
import dev.once.shop.openapi.Created;
import dev.once.shop.openapi.CreatedAt;
import dev.once.shop.openapi.OpenApiConfiguration;
import dev.once.shop.openapi.Problems;
import dev.once.shop.persistence.Text;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.web.Idempotent;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/payments}: charge an account, read a payment, refund it. Every POST needs an
 * Idempotency-Key ({@link Idempotent}).
 */
@Idempotent
@RestController
@RequestMapping(path = "/v1/payments", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "payments", description = "Payments through the provider, and their refunds")
@SecurityRequirement(name = OpenApiConfiguration.API_KEY_SCHEME)
class PaymentController {
  static final int MAX_ID_LENGTH = 100;
  static final int MAX_DESCRIPTION_LENGTH = 500;

  private final PaymentService payments;

  PaymentController(PaymentService payments) {
    this.payments = payments;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "createPayment",
      summary = "Charge an account; the provider is asked after commit",
      description =
          "Debits the account and records the payment as `pending` in one transaction; the"
              + " payment provider is called after the commit, by the outbox relay, and the"
              + " payment becomes `succeeded` or `failed` (a failure gives the money back). Read"
              + " it with GET to see the outcome. The amount must fit the currency's minor units"
              + " (ISO 4217: 2 for EUR, 0 for JPY, 3 for KWD; 422 `invalid-amount`). A retry"
              + " under the same `Idempotency-Key` gets the same payment: the account is charged"
              + " once.")
  @CreatedAt
  @Problems({
    ShopProblem.ACCOUNT_NOT_FOUND,
    ShopProblem.INVALID_AMOUNT,
    ShopProblem.INVALID_CURRENCY,
    ShopProblem.INSUFFICIENT_FUNDS,
    ShopProblem.CURRENCY_MISMATCH,
    ShopProblem.AMOUNT_OUT_OF_RANGE,
    ShopProblem.OUTBOX_OVERLOADED
  })
  ResponseEntity<PaymentView> create(
      AuthenticatedClient client, @Valid @RequestBody PaymentRequest body) {
    Payment payment =
        payments.create(
            client.id(),
            body.accountId(),
            Money.parse(body.amount(), body.currency(), "amount"),
            body.currency(),
            Optional.ofNullable(body.description()));
    return ResponseEntity.created(URI.create("/v1/payments/" + payment.id()))
        .body(PaymentView.of(payment));
  }

  @GetMapping("/{id}")
  @Operation(
      operationId = "getPayment",
      summary = "Read a payment",
      description = "`status` is `pending` until the provider has answered.")
  @Problems(ShopProblem.PAYMENT_NOT_FOUND)
  PaymentView get(AuthenticatedClient client, @PathVariable String id) {
    return PaymentView.of(payments.get(client.id(), id));
  }

  @PostMapping(path = "/{id}/refunds", consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "refundPayment",
      summary = "Refund part or all of a succeeded payment",
      description =
          "Reserves the amount on the payment and asks the provider after commit; the refund is"
              + " `pending` (`operationId` null) until the provider has answered. When the"
              + " provider confirms it, the refund is `succeeded` and the account is credited"
              + " (`operationId` names that journal row); when it refuses, the refund is `failed`,"
              + " the reservation is released and no money has moved. Refunds that are pending or"
              + " succeeded never add up to more than the payment, even concurrently (422"
              + " `refund-exceeds-payment`). The amount must fit the payment currency's minor units"
              + " (422 `invalid-amount`). A payment that belongs to an order is refunded by"
              + " cancelling the order (422 `payment-belongs-to-order`), unless the order is"
              + " already cancelled (for instance, after the provider refused the cancellation's"
              + " refund). A retry under the same `Idempotency-Key` gets the same refund: the money"
              + " goes back once.")
  @Created
  @Problems({
    ShopProblem.PAYMENT_NOT_FOUND,
    ShopProblem.INVALID_AMOUNT,
    ShopProblem.PAYMENT_NOT_REFUNDABLE,
    ShopProblem.PAYMENT_BELONGS_TO_ORDER,
    ShopProblem.REFUND_EXCEEDS_PAYMENT,
    ShopProblem.OUTBOX_OVERLOADED
  })
  ResponseEntity<RefundView> refund(
      AuthenticatedClient client, @PathVariable String id, @Valid @RequestBody RefundRequest body) {
    Refund refund = payments.refund(client.id(), id, Money.parse(body.amount()));
    return ResponseEntity.status(HttpStatus.CREATED).body(RefundView.of(refund));
  }

  @GetMapping("/{id}/refunds")
  @Operation(
      operationId = "listRefunds",
      summary = "List a payment's refunds, oldest first, with their provider status",
      description = "All the payment's refunds, in the order they were made.")
  @Problems(ShopProblem.PAYMENT_NOT_FOUND)
  RefundList refunds(AuthenticatedClient client, @PathVariable String id) {
    return new RefundList(payments.refunds(client.id(), id).stream().map(RefundView::of).toList());
  }

  /** Body of a payment. */
  @Schema(name = "PaymentRequest")
  record PaymentRequest(
      @NotNull @Text(max = MAX_ID_LENGTH) @Schema(example = "acc_Vb3f0Yb2o7d8r5XxJ1rQ9w")
          String accountId,
      @NotNull @Money.Amount @Schema(example = "12.50") String amount,
      @NotNull @Money.Currency @Schema(example = "EUR") String currency,
      @Text(max = MAX_DESCRIPTION_LENGTH) @Schema(example = "Order 42") String description) {}

  /** Body of a refund. */
  record RefundRequest(@NotNull @Money.Amount @Schema(example = "2.50") String amount) {}

  /**
   * A refund on the wire; {@code operationId} is the credit's journal row, null until the provider
   * confirmed the refund.
   */
  @Schema(name = "Refund")
  record RefundView(
      @Schema(example = "ref_pX0q3dZ8yB5nT1vK7mR2cA") String id,
      @Schema(example = "pay_7Hn2kQe4Wm9sLx3Bv6TgZa") String paymentId,
      @Schema(example = "2.5000") String amount,
      @Schema(
              example = "pending",
              allowableValues = {"pending", "succeeded", "failed"})
          String status,
      @Schema(
              example = "op_Yt5wE1rN8uC4xJ6bH2dL0g",
              nullable = true,
              description =
                  "The journal row that credited the account: null while the refund is pending,"
                      + " and for good if the provider refused it")
          String operationId) {
    static RefundView of(Refund refund) {
      return new RefundView(
          refund.id(),
          refund.paymentId(),
          Money.format(refund.amount()),
          refund.status().wireName(),
          refund.operationId().orElse(null));
    }
  }

  /** The refunds of a payment. */
  @Schema(name = "RefundList")
  record RefundList(List<RefundView> items) {}
}
