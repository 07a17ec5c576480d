package dev.once.shop.problems;

import dev.once.spring.web.OnceProblem;
import jakarta.validation.metadata.ConstraintDescriptor;
import org.springframework.http.HttpStatus;

/**
 * Every problem the shop answers with, each with its stable slug (the last segment of the RFC 9457
 * {@code type}), HTTP status and title. Clients may switch on the slug; it never changes meaning.
 * The conditions Once's filter answers too take its {@link OnceProblem}, so both speak one
 * vocabulary.
 */
public enum ShopProblem {
  BAD_REQUEST("bad-request", HttpStatus.BAD_REQUEST, "Bad request"),
  MALFORMED_JSON(OnceProblem.MALFORMED_JSON),
  JSON_TOO_DEEP(OnceProblem.JSON_TOO_DEEP),
  INVALID_PARAMETER("invalid-parameter", HttpStatus.BAD_REQUEST, "Invalid query parameter"),
  UNAUTHORIZED(OnceProblem.UNAUTHORIZED),
  NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found"),
  CLIENT_NOT_FOUND("client-not-found", HttpStatus.NOT_FOUND, "Client not found"),
  ACCOUNT_NOT_FOUND("account-not-found", HttpStatus.NOT_FOUND, "Account not found"),
  PAYMENT_NOT_FOUND("payment-not-found", HttpStatus.NOT_FOUND, "Payment not found"),
  REFUND_NOT_FOUND("refund-not-found", HttpStatus.NOT_FOUND, "Refund not found"),
  PRODUCT_NOT_FOUND("product-not-found", HttpStatus.NOT_FOUND, "Product not found"),
  ORDER_NOT_FOUND("order-not-found", HttpStatus.NOT_FOUND, "Order not found"),
  OUTBOX_MESSAGE_NOT_FOUND(
      "outbox-message-not-found", HttpStatus.NOT_FOUND, "No dead outbox message with this id"),
  /** A requeue of a dead row older than the inbox retention, without {@code force=true}. */
  REQUEUE_PAST_RETENTION(
      "requeue-past-retention", HttpStatus.CONFLICT, "Requeue past the inbox retention"),
  METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
  NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
  PAYLOAD_TOO_LARGE(OnceProblem.PAYLOAD_TOO_LARGE),
  REQUEST_HEADER_TOO_LARGE(
      "request-header-too-large",
      HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
      "Request header too large"),
  UNSUPPORTED_MEDIA_TYPE(
      "unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
  VALIDATION_FAILED("validation-failed", HttpStatus.UNPROCESSABLE_CONTENT, "Validation failed"),
  INVALID_AMOUNT("invalid-amount", HttpStatus.UNPROCESSABLE_CONTENT, "Invalid amount"),
  INVALID_CURRENCY("invalid-currency", HttpStatus.UNPROCESSABLE_CONTENT, "Invalid currency"),
  INSUFFICIENT_FUNDS("insufficient-funds", HttpStatus.UNPROCESSABLE_CONTENT, "Insufficient funds"),
  CURRENCY_MISMATCH("currency-mismatch", HttpStatus.UNPROCESSABLE_CONTENT, "Currency mismatch"),
  AMOUNT_OUT_OF_RANGE(
      "amount-out-of-range", HttpStatus.UNPROCESSABLE_CONTENT, "Amount out of range"),
  PAYMENT_NOT_REFUNDABLE(
      "payment-not-refundable", HttpStatus.UNPROCESSABLE_CONTENT, "Payment not refundable"),
  REFUND_EXCEEDS_PAYMENT(
      "refund-exceeds-payment", HttpStatus.UNPROCESSABLE_CONTENT, "Refund exceeds payment"),
  PAYMENT_BELONGS_TO_ORDER(
      "payment-belongs-to-order", HttpStatus.UNPROCESSABLE_CONTENT, "Payment belongs to an order"),
  UNKNOWN_PRODUCT("unknown-product", HttpStatus.UNPROCESSABLE_CONTENT, "Unknown product"),
  INVALID_ORDER_STATE(
      "invalid-order-state", HttpStatus.UNPROCESSABLE_CONTENT, "Invalid order state"),
  PRODUCT_EXISTS("product-exists", HttpStatus.CONFLICT, "Product exists"),
  ILLEGAL_PAYMENT_TRANSITION(
      "illegal-payment-transition", HttpStatus.CONFLICT, "Illegal payment status transition"),
  INTERNAL_ERROR(OnceProblem.INTERNAL_ERROR),
  SERVICE_UNAVAILABLE(OnceProblem.SERVICE_UNAVAILABLE),
  /** Load shedding: the outbox's relay is too far behind to take new work that appends to it. */
  OUTBOX_OVERLOADED(OnceProblem.OUTBOX_OVERLOADED),
  /** Once's per-client cap on requests in flight ({@code once.idempotency.limits}). */
  TOO_MANY_IN_FLIGHT(OnceProblem.TOO_MANY_IN_FLIGHT),
  /** Once's per-client cap on new idempotency keys per minute. */
  TOO_MANY_NEW_KEYS(OnceProblem.TOO_MANY_NEW_KEYS),
  /** A success too large to store with its key: rolled back, nothing applied. */
  ANSWER_TOO_LARGE(OnceProblem.ANSWER_TOO_LARGE);

  private final String slug;
  private final HttpStatus status;
  private final String title;

  ShopProblem(String slug, HttpStatus status, String title) {
    this.slug = slug;
    this.status = status;
    this.title = title;
  }

  ShopProblem(OnceProblem shared) {
    this(shared.slug(), HttpStatus.valueOf(shared.status()), shared.title());
  }

  /** The stable last segment of the problem's {@code type} URI. */
  public String slug() {
    return slug;
  }

  /** The HTTP status answered with this problem. */
  public HttpStatus status() {
    return status;
  }

  /** A short, fixed, human-readable summary. */
  public String title() {
    return title;
  }

  /**
   * The problem a broken constraint of a request field is answered with: the one its {@code
   * problem} attribute names (the money formats), otherwise {@link #VALIDATION_FAILED}.
   */
  public static ShopProblem of(ConstraintDescriptor<?> constraint) {
    return constraint.getAttributes().get("problem") instanceof ShopProblem problem
        ? problem
        : VALIDATION_FAILED;
  }
}
