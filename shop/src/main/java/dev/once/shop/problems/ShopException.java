package dev.once.shop.problems;

import org.springframework.web.ErrorResponseException;

/**
 * Common base of the exceptions the shop raises on purpose: each names a domain condition and
 * carries its answer, the {@link ShopProblem}'s title and status with a {@code detail} and, for a
 * bad field, {@code field}; {@link ProblemResponses} adds the {@code type}. The detail is one
 * sentence for the client, so it carries identifiers the client sent (an account id, a field name)
 * but never a stored payload, a secret, SQL or internals.
 */
public abstract class ShopException extends ErrorResponseException {
  private static final long serialVersionUID = 1L;

  private final ShopProblem problem;

  protected ShopException(ShopProblem problem, String detail) {
    this(problem, null, detail, null);
  }

  protected ShopException(ShopProblem problem, String field, String detail, Throwable cause) {
    super(problem.status(), ProblemResponses.untyped(problem, detail), cause);
    if (field != null) {
      getBody().setProperty("field", field);
    }
    this.problem = problem;
  }

  /** The problem this condition is answered with. */
  public ShopProblem problem() {
    return problem;
  }
}
