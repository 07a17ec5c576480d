package dev.once.shop.accounts;

import dev.once.shop.persistence.Ids;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Accounts and their ledger. Methods join the caller's transaction — inside an idempotent request
 * that is the one Once opened for the key — or open their own. Thread-safe; concurrency on one
 * account is serialized by the database's row lock, not in Java.
 */
@Service
public class AccountService {
  private final AccountRepository accounts;
  private final Clock clock;

  AccountService(AccountRepository accounts, Clock clock) {
    this.accounts = accounts;
    this.clock = clock;
  }

  /** Opens an empty account in {@code currency} for {@code client}. */
  @Transactional
  public Account open(String client, String currency) {
    return accounts.insert(Ids.next(Ids.ACCOUNT), client, currency, Timestamps.now(clock));
  }

  /**
   * The client's account. One statement, so no transaction of its own (it joins the caller's, if
   * any): BEGIN and COMMIT would double the round trips of a single-row read.
   *
   * @throws NotFoundException {@code account-not-found}, also for another client's account and for
   *     an id that is not an account id at all
   */
  public Account get(String client, String accountId) {
    if (!Ids.isWellFormed(Ids.ACCOUNT, accountId)) {
      throw accountNotFound();
    }
    return accounts.find(accountId, client).orElseThrow(AccountService::accountNotFound);
  }

  /**
   * Pays {@code amount} into the account: one journal row and the new balance, in one statement.
   *
   * @return the journal row; its {@code balanceAfter} is the account's new balance
   * @throws NotFoundException {@code account-not-found}
   * @throws InvalidRequestException {@code invalid-amount} if the amount has more fraction digits
   *     than the account's currency; nothing is written
   */
  @Transactional
  public Operation deposit(String client, String accountId, BigDecimal amount) {
    if (!Ids.isWellFormed(Ids.ACCOUNT, accountId)) {
      throw accountNotFound();
    }
    return accounts
        .deposit(accountId, client, Ids.next(Ids.OPERATION), amount, Timestamps.now(clock))
        .orElseThrow(() -> whyNoDeposit(client, accountId));
  }

  /** Why the deposit wrote nothing; read only on that failure path. */
  private RuntimeException whyNoDeposit(String client, String accountId) {
    Account account = accounts.find(accountId, client).orElse(null);
    if (account == null) {
      return accountNotFound();
    }
    return Money.tooPrecise("amount", account.currency());
  }

  /**
   * A page of the account's journal in the order it was written, after the operation {@code after}
   * (an id from a previous page) if given. Its statements (account, cursor, page) run in one
   * read-only transaction, on one connection.
   *
   * @throws NotFoundException {@code account-not-found}
   * @throws InvalidRequestException {@code invalid-parameter} if {@code after} is not an operation
   *     of this account, or not an operation id at all
   */
  @Transactional(readOnly = true)
  public OperationPage operations(
      String client, String accountId, int limit, Optional<String> after) {
    get(client, accountId);
    long afterSeq = 0;
    if (after.isPresent()) {
      // A cursor that is not even shaped like an operation id (a NUL, undecodable text, any
      // length) is refused without a query, exactly like an unknown one.
      afterSeq =
          (Ids.isWellFormed(Ids.OPERATION, after.get())
                  ? accounts.cursorSeq(accountId, after.get())
                  : OptionalLong.empty())
              .orElseThrow(
                  () ->
                      new InvalidRequestException(
                          ShopProblem.INVALID_PARAMETER,
                          "after",
                          "Parameter 'after' must be the id of an operation of this account."));
    }
    // One row more than asked tells whether another page exists without a count.
    List<Operation> rows = accounts.page(accountId, afterSeq, limit + 1);
    if (rows.size() <= limit) {
      return new OperationPage(rows, Optional.empty());
    }
    List<Operation> items = rows.subList(0, limit);
    return new OperationPage(List.copyOf(items), Optional.of(items.get(limit - 1).id()));
  }

  /**
   * The answer for a missing account, also for another client's: one wording wherever an account is
   * looked up, so a foreign account can never be told from a missing one.
   */
  public static NotFoundException accountNotFound() {
    return new NotFoundException(
        ShopProblem.ACCOUNT_NOT_FOUND, "No account with this id exists for this client.");
  }

  /**
   * A page of journal rows.
   *
   * @param items the rows, oldest first
   * @param next the id to pass as {@code after} for the next page, or empty on the last page
   */
  public record OperationPage(List<Operation> items, Optional<String> next) {}
}
