package dev.once.shop.accounts;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/** A debit would take the account's balance below zero; nothing was written. */
public final class InsufficientFundsException extends ShopException {
  private static final long serialVersionUID = 1L;

  public InsufficientFundsException(String accountId) {
    super(
        ShopProblem.INSUFFICIENT_FUNDS,
        "The balance of account '" + accountId + "' is too low for this amount.");
  }
}
