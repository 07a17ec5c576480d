package dev.once.shop.problems;

/**
 * The request itself is unacceptable (syntax, size, a field's type or format, a query parameter);
 * nothing was looked up or written because of it.
 */
public final class InvalidRequestException extends ShopException {
  private static final long serialVersionUID = 1L;

  /** A problem with the request as a whole. */
  public InvalidRequestException(ShopProblem problem, String detail) {
    super(problem, detail);
  }

  /** A problem with the request as a whole, found while reading it ({@code cause}). */
  public InvalidRequestException(ShopProblem problem, String detail, Throwable cause) {
    super(problem, null, detail, cause);
  }

  /** A problem with one field of the request body, or one query parameter. */
  public InvalidRequestException(ShopProblem problem, String field, String detail) {
    super(problem, field, detail, null);
  }
}
