package dev.once.shop.outbox;

import dev.once.shop.problems.ShopException;
import dev.once.shop.problems.ShopProblem;

/**
 * A requeue of a dead row appended longer ago than the inbox retention, without {@code force}: a
 * second delivery may apply its effect again, so an operator must check first.
 */
final class RequeuePastRetentionException extends ShopException {
  private static final long serialVersionUID = 1L;

  RequeuePastRetentionException(String detail) {
    super(ShopProblem.REQUEUE_PAST_RETENTION, detail);
  }
}
