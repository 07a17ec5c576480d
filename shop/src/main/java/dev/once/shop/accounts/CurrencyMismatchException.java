package dev.once.shop.accounts;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** An amount in one currency was aimed at an account in another; nothing was written. */
public final class CurrencyMismatchException extends ShopException {
  private static final long serialVersionUID = 1L;

  public CurrencyMismatchException(String accountId, String accountCurrency, String requested) {
    super(
        ShopProblem.CURRENCY_MISMATCH,
        "Account '"
            + accountId
            + "' holds "
            + accountCurrency
            + ", but the request is in "
            + requested
            + ".");
  }
}
