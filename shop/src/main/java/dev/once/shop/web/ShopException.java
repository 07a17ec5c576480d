package dev.once.shop.web;

import java.util.Objects;
import java.util.Optional;

/**
 * Common base of the exceptions the shop raises on purpose: each names a domain condition and the
 * {@link ShopProblem} it is answered with. The message is the problem's {@code detail}: one
 * sentence for the client, so it carries identifiers the client sent (an account id, a field name)
 * but never a stored payload, a secret, SQL or internals.
 */
public abstract class ShopException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ShopProblem problem;

  protected ShopException(ShopProblem problem, String detail) {
    super(detail);
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  protected ShopException(ShopProblem problem, String detail, Throwable cause) {
    super(detail, cause);
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /** The problem this condition is answered with. */
  public ShopProblem problem() {
    return problem;
  }

  /** The request field the problem is about, if any (added to the answer as {@code field}). */
  public Optional<String> field() {
    return Optional.empty();
  }
}
