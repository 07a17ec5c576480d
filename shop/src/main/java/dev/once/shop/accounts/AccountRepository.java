package dev.once.shop.accounts;

import static dev.once.shop.persistence.Timestamps.utc;

import dev.once.shop.persistence.Timestamps;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * SQL of the account aggregate: accounts and their append-only journal. Every statement is scoped
 * by client, so another client's account behaves exactly like a missing one. Money moves only by
 * inserting a journal row: the database's guard trigger ({@code V3__ledger_guard.sql}) applies it
 * to the balance under the account's row lock, in the same statement (G4); the application's role
 * may not update a balance at all.
 */
@Repository
class AccountRepository {
  static final String INSERT =
      """
      INSERT INTO account (id, client_id, currency, created_at)
      VALUES (:id, :client, :currency, :now)
      RETURNING id, currency, balance
      """;

  static final String FIND =
      """
      SELECT id, currency, balance FROM account WHERE id = :id AND client_id = :client
      """;

  /**
   * Credit and journal row in one statement: the guard trigger takes the account's row lock, so
   * concurrent movements on one account serialize and each sees the balance the previous one left;
   * it fills {@code balance_after} with that balance. No row if the account is missing or foreign,
   * or if the amount needs more fraction digits ({@code :digits}) than the account's currency has.
   */
  static final String DEPOSIT =
      """
      INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
      SELECT :operationId, id, 'deposit', :amount, NULL, :now
      FROM account
      WHERE id = :account AND client_id = :client AND :digits <= %s
      RETURNING id, account_id, kind, amount, balance_after, reverses, created_at
      """
          .formatted(Money.minorUnitsSql("currency"));

  /** The position of a cursor operation within its account, for keyset pagination. */
  static final String CURSOR_SEQ =
      """
      SELECT seq FROM operation WHERE id = :after AND account_id = :account
      """;

  /** One page in journal order; served by the (account_id, seq) index, no sort, no scan. */
  static final String PAGE =
      """
      SELECT id, account_id, kind, amount, balance_after, reverses, created_at
      FROM operation
      WHERE account_id = :account AND seq > :afterSeq
      ORDER BY seq
      LIMIT :limit
      """;

  private final JdbcClient jdbc;

  AccountRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  Account insert(String id, String client, String currency, Instant now) {
    return jdbc.sql(INSERT)
        .param("id", id)
        .param("client", client)
        .param("currency", currency)
        .param("now", utc(now))
        .query(AccountRepository::account)
        .single();
  }

  Optional<Account> find(String id, String client) {
    return jdbc.sql(FIND)
        .param("id", id)
        .param("client", client)
        .query(AccountRepository::account)
        .optional();
  }

  /**
   * The new journal row, or empty if the client has no such account or the amount does not fit its
   * currency.
   */
  Optional<Operation> deposit(
      String account, String client, String operationId, BigDecimal amount, Instant now) {
    return jdbc.sql(DEPOSIT)
        .param("account", account)
        .param("client", client)
        .param("operationId", operationId)
        .param("amount", amount)
        .param("digits", Money.fractionDigits(amount))
        .param("now", utc(now))
        .query(AccountRepository::operation)
        .optional();
  }

  OptionalLong cursorSeq(String account, String afterOperationId) {
    return jdbc.sql(CURSOR_SEQ)
        .param("after", afterOperationId)
        .param("account", account)
        .query(Long.class)
        .optional()
        .map(OptionalLong::of)
        .orElseGet(OptionalLong::empty);
  }

  List<Operation> page(String account, long afterSeq, int limit) {
    return jdbc.sql(PAGE)
        .param("account", account)
        .param("afterSeq", afterSeq)
        .param("limit", limit)
        .query(AccountRepository::operation)
        .list();
  }

  static Account account(ResultSet rs, int row) throws SQLException {
    return new Account(rs.getString("id"), rs.getString("currency"), rs.getBigDecimal("balance"));
  }

  /** Maps the columns every statement returning journal rows selects. */
  static Operation operation(ResultSet rs, int row) throws SQLException {
    return new Operation(
        rs.getString("id"),
        rs.getString("account_id"),
        OperationKind.fromWireName(rs.getString("kind")),
        rs.getBigDecimal("amount"),
        rs.getBigDecimal("balance_after"),
        Optional.ofNullable(rs.getString("reverses")),
        Timestamps.read(rs, "created_at"));
  }
}
