package dev.once.shop.web;

import java.util.Optional;

/**
 * The request itself is unacceptable (syntax, size, a field's type or format, a query parameter);
 * nothing was looked up or written because of it.
 */
public final class InvalidRequestException extends ShopException {
  private static final long serialVersionUID = 1L;

  private final String field;

  /** A problem with the request as a whole. */
  public InvalidRequestException(ShopProblem problem, String detail) {
    this(problem, null, detail);
  }

  /** A problem with the request as a whole, found while reading it ({@code cause}). */
  public InvalidRequestException(ShopProblem problem, String detail, Throwable cause) {
    super(problem, detail, cause);
    this.field = null;
  }

  /** A problem with one field of the request body, or one query parameter. */
  public InvalidRequestException(ShopProblem problem, String field, String detail) {
    super(problem, detail);
    this.field = field;
  }

  @Override
  public Optional<String> field() {
    return Optional.ofNullable(field);
  }
}
