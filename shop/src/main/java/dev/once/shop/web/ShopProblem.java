package dev.once.shop.web;

import java.util.Optional;
import org.springframework.http.HttpStatus;

/**
 * Every problem the shop answers with, each with its stable slug (the last segment of the RFC 9457
 * {@code type}), HTTP status and title. Clients may switch on the slug; it never changes meaning.
 * The slugs shared with Once's filter ({@code unauthorized}, {@code malformed-json}, {@code
 * json-too-deep}, {@code payload-too-large}) are spelled as the filter spells them.
 */
public enum ShopProblem {
  BAD_REQUEST("bad-request", HttpStatus.BAD_REQUEST, "Bad request"),
  MALFORMED_JSON("malformed-json", HttpStatus.BAD_REQUEST, "Malformed JSON"),
  JSON_TOO_DEEP("json-too-deep", HttpStatus.BAD_REQUEST, "JSON nested too deeply"),
  INVALID_PARAMETER("invalid-parameter", HttpStatus.BAD_REQUEST, "Invalid query parameter"),
  UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "Unauthorized"),
  NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found"),
  CLIENT_NOT_FOUND("client-not-found", HttpStatus.NOT_FOUND, "Client not found"),
  ACCOUNT_NOT_FOUND("account-not-found", HttpStatus.NOT_FOUND, "Account not found"),
  PAYMENT_NOT_FOUND("payment-not-found", HttpStatus.NOT_FOUND, "Payment not found"),
  METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
  NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
  PAYLOAD_TOO_LARGE("payload-too-large", HttpStatus.CONTENT_TOO_LARGE, "Payload too large"),
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
  ILLEGAL_PAYMENT_TRANSITION(
      "illegal-payment-transition", HttpStatus.CONFLICT, "Illegal payment status transition"),
  INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error"),
  SERVICE_UNAVAILABLE("service-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable");

  private final String slug;
  private final HttpStatus status;
  private final String title;

  ShopProblem(String slug, HttpStatus status, String title) {
    this.slug = slug;
    this.status = status;
    this.title = title;
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
   * The generic problem for a status that no more specific problem explains, if the shop names one;
   * 422 is left out on purpose because every 422 of the shop has a specific problem.
   */
  public static Optional<ShopProblem> forStatus(int status) {
    return Optional.ofNullable(
        switch (status) {
          case 400 -> BAD_REQUEST;
          case 401 -> UNAUTHORIZED;
          case 404 -> NOT_FOUND;
          case 405 -> METHOD_NOT_ALLOWED;
          case 406 -> NOT_ACCEPTABLE;
          case 413 -> PAYLOAD_TOO_LARGE;
          case 415 -> UNSUPPORTED_MEDIA_TYPE;
          case 431 -> REQUEST_HEADER_TOO_LARGE;
          case 500 -> INTERNAL_ERROR;
          case 503 -> SERVICE_UNAVAILABLE;
          default -> null;
        });
  }
}
