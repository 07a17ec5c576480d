package dev.once.shop.provider;

/** What the provider said about one charge or refund request. */
sealed interface ProviderAnswer {

  /**
   * The kind of answer, as the {@code outcome} tag of the provider calls' span and timer: {@code
   * succeeded}, {@code declined}, {@code unavailable} or {@code rejected}; never a value from the
   * request or the body.
   */
  default String outcome() {
    if (this instanceof Succeeded) {
      return "succeeded";
    }
    if (this instanceof Declined) {
      return "declined";
    }
    return this instanceof Unavailable ? "unavailable" : "rejected";
  }

  /** The provider applied it (or had, under the same key). */
  record Succeeded(String providerId) implements ProviderAnswer {}

  /** The provider refused it for good, e.g. a declined card. */
  record Declined(String code) implements ProviderAnswer {}

  /**
   * No final answer: a time-out, a broken connection, a 5xx, a 408/409/425/429. The same request
   * under the same key may be sent again.
   */
  record Unavailable(String reason) implements ProviderAnswer {}

  /**
   * The provider rejected the request itself (a 4xx such as 400, 404 or 422): sending it again
   * cannot help; an operator must look.
   */
  record Rejected(int status, String reason) implements ProviderAnswer {}
}
