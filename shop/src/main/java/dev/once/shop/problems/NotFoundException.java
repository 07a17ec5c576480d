package dev.once.shop.problems;

/**
 * The resource does not exist or belongs to another client; both are answered alike so that a
 * client cannot learn which ids other clients use.
 */
public final class NotFoundException extends ShopException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(ShopProblem problem, String detail) {
    super(problem, detail);
  }
}
