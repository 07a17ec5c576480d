package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.shop.persistence.DatabaseErrors;
import dev.once.shop.support.BlockedBackends;
import dev.once.shop.support.DatabaseLogins;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * G4 in the database: journal rows cannot be changed or removed, and a balance moves only with its
 * journal row, whatever SQL is sent with the application's credentials. The shop's {@code jdbc}
 * connects as the application's role, exactly as the running shop does.
 */
class LedgerTest extends ShopIntegrationTest {
  /** SQLSTATE insufficient_privilege. */
  private static final String PERMISSION_DENIED = "42501";

  @Autowired private DataSource applicationDataSource;

  private String account;
  private String operation;

  @BeforeEach
  void oneDeposit() {
    TestClient client = newClient();
    account = client.openAccount("EUR");
    operation = client.deposit(account, "10").text("operationId");
  }

  /**
   * Every write that could bypass the ledger, tried as the application's role: each one is refused
   * by PostgreSQL's privileges, and nothing changes.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "UPDATE account SET balance = 1e9 WHERE id = :account",
        "UPDATE account SET balance = balance",
        "INSERT INTO account (id, client_id, currency, balance, created_at)"
            + " SELECT 'acc_forged', client_id, 'EUR', 1e9, now() FROM account WHERE id = :account",
        "DELETE FROM account WHERE id = :account",
        "UPDATE operation SET amount = 1000 WHERE id = :operation",
        "DELETE FROM operation WHERE id = :operation",
        "TRUNCATE operation CASCADE",
        "INSERT INTO operation (id, account_id, kind, amount, balance_after, created_at)"
            + " VALUES ('op_forged', :account, 'deposit', 5, 1e9, now())",
        "INSERT INTO operation (seq, id, account_id, kind, amount, created_at)"
            + " VALUES (-1, 'op_forged', :account, 'deposit', 5, now())",
        "UPDATE payment SET amount = 0.0001",
        "DELETE FROM payment",
        "DELETE FROM client",
        "SET session_replication_role = replica",
        "ALTER TABLE operation DISABLE TRIGGER ALL",
        "ALTER TABLE operation DISABLE TRIGGER operation_apply_to_balance",
        "DROP TRIGGER operation_no_update_or_delete ON operation",
        "CREATE OR REPLACE FUNCTION operation_apply_to_balance() RETURNS trigger"
            + " LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$",
        "ALTER TABLE account DROP CONSTRAINT account_balance_non_negative",
        "CREATE TABLE forged (id int)",
        "CREATE TEMPORARY TABLE account (id text)",
        "SET ROLE shop_owner",
        "DELETE FROM flyway_schema_history",
        "DROP SCHEMA once CASCADE",
        "ALTER TABLE once.idempotency_key DISABLE TRIGGER ALL"
      })
  void theApplicationRoleCannotBypassTheLedger(String sql) throws SQLException {
    String before = ledgerState();
    String statement =
        sql.replace(":account", quoted(account)).replace(":operation", quoted(operation));
    try (Connection connection = applicationDataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement st = connection.createStatement()) {
        SQLException refused =
            catchThrowableOfType(SQLException.class, () -> st.execute(statement));
        assertThat((Throwable) refused).as("%s must be refused", statement).isNotNull();
        assertThat(refused.getSQLState()).as(refused.getMessage()).isEqualTo(PERMISSION_DENIED);
      } finally {
        connection.rollback(); // also undoes a SET, should one ever succeed
      }
    }
    assertThat(ledgerState()).isEqualTo(before);
  }

  @Test
  void theApplicationRoleIsNoSuperuserAndOwnsNothing() {
    assertThat(jdbc.sql("SELECT current_user").query(String.class).single())
        .isEqualTo(DatabaseLogins.applicationRole());
    assertThat(
            jdbc.sql(
                    "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls FROM pg_roles"
                        + " WHERE rolname = current_user")
                .query(Boolean.class)
                .single())
        .isFalse();
    assertThat(
            jdbc.sql(
                    """
                    SELECT (SELECT count(*) FROM pg_class WHERE relowner = current_user::regrole)
                         + (SELECT count(*) FROM pg_namespace WHERE nspowner = current_user::regrole)
                         + (SELECT count(*) FROM pg_proc WHERE proowner = current_user::regrole)
                    """)
                .query(Long.class)
                .single())
        .isZero();
  }

  @Test
  void theShopWarnsOnlyAboutARoleWithMoreRightsThanItNeeds() {
    assertThat(LedgerPrivileges.excess(applicationDataSource)).isEmpty();
    assertThat(LedgerPrivileges.excess(ownerDataSource()))
        .containsExactly(
            "owns the ledger's tables",
            "may update balances",
            "may update, delete or truncate the journal");
    assertThat(LedgerPrivileges.excess(DatabaseLogins.superuser(Path.of(DATA_DIR))))
        .startsWith("is a superuser");
  }

  @Test
  void everyGuardTriggerFiresAlways() {
    assertThat(
            jdbc.sql(
                    """
                    SELECT tgname || '=' || tgenabled::text FROM pg_trigger
                     WHERE NOT tgisinternal
                       AND tgrelid IN ('operation'::regclass, 'once.idempotency_key'::regclass)
                     ORDER BY tgname
                    """)
                .query(String.class)
                .list())
        .containsExactly(
            "idempotency_key_completed_at_commit=A",
            "operation_apply_to_balance=A",
            "operation_no_truncate=A",
            "operation_no_update_or_delete=A");
  }

  @Test
  void evenTheSuperuserInReplicaModeCannotChangeTheJournal() throws SQLException {
    DataSource superuser = DatabaseLogins.superuser(Path.of(DATA_DIR));
    try (Connection connection = superuser.getConnection();
        Statement st = connection.createStatement()) {
      connection.setAutoCommit(false);
      st.execute("SET LOCAL session_replication_role = replica");
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  st.execute("UPDATE operation SET amount = 1000 WHERE id = " + quoted(operation)));
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo(DatabaseErrors.APPEND_ONLY_VIOLATION);
      connection.rollback();
    }
  }

  @Test
  void theOwnerCannotChangeOrRemoveJournalRowsEither() {
    JdbcClient owner = JdbcClient.create(ownerDataSource());
    for (String sql :
        new String[] {
          "UPDATE operation SET amount = 1000 WHERE id = " + quoted(operation),
          "DELETE FROM operation WHERE id = " + quoted(operation),
          "TRUNCATE operation CASCADE"
        }) {
      DataAccessException e =
          catchThrowableOfType(DataAccessException.class, () -> owner.sql(sql).update());
      assertThat(e).as("%s must fail", sql).isNotNull();
      assertThat(DatabaseErrors.sqlState(e)).hasValue(DatabaseErrors.APPEND_ONLY_VIOLATION);
    }
    assertThat(balance()).isEqualTo("10.0000");
  }

  @Test
  void balanceCannotGoNegativeEvenByTheOwnersDirectSql() {
    JdbcClient owner = JdbcClient.create(ownerDataSource());
    DataAccessException e =
        catchThrowableOfType(
            DataAccessException.class,
            () ->
                owner
                    .sql("UPDATE account SET balance = -1 WHERE id = :id")
                    .param("id", account)
                    .update());
    assertThat(DatabaseErrors.sqlState(e)).hasValue("23514");
    assertThat(DatabaseErrors.constraint(e)).hasValue("account_balance_non_negative");
  }

  @Test
  void aJournalRowMovesTheBalanceByExactlyItsAmount() {
    String balanceAfter =
        jdbc.sql(
                """
                INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
                VALUES ('op_direct_' || md5(random()::text), :account, 'deposit', 2.5, NULL, now())
                RETURNING balance_after::text
                """)
            .param("account", account)
            .query(String.class)
            .single();
    assertThat(balanceAfter).isEqualTo("12.5000");
    assertThat(balance()).isEqualTo("12.5000");
  }

  @Test
  void aJournalRowThatWouldTakeTheBalanceBelowZeroIsNotWritten() {
    int inserted =
        jdbc.sql(
                """
                INSERT INTO operation (id, account_id, kind, amount, reverses, created_at)
                VALUES ('op_direct_' || md5(random()::text), :account, 'charge', -10.0001, NULL, now())
                """)
            .param("account", account)
            .update();
    assertThat(inserted).isZero();
    assertThat(balance()).isEqualTo("10.0000");
  }

  @Test
  void everyOperationRecordsTheBalanceItLeft() {
    String balanceAfter =
        jdbc.sql("SELECT balance_after::text FROM operation WHERE id = :id")
            .param("id", operation)
            .query(String.class)
            .single();
    assertThat(balanceAfter).isEqualTo("10.0000");
  }

  /**
   * seq is taken only once the account's row lock is held, so a movement that waited for the lock
   * is numbered after the one that held it: per account, seq order is commit order, and a reader
   * paging with {@code seq > :after} never skips a row that commits late.
   */
  @Test
  void aMovementThatWaitsForTheAccountIsNumberedAfterTheOneThatHeldIt() throws Exception {
    TestClient client = newClient();
    String acc = client.openAccountWith("EUR", "5");
    try (Connection holder = BlockedBackends.lockAccount(ownerDataSource(), acc)) {
      CompletableFuture<String> waiting =
          CompletableFuture.supplyAsync(() -> client.deposit(acc, "1").text("operationId"));
      BlockedBackends.awaitBlockedOn(jdbc, "operation");
      String held;
      try (PreparedStatement insert =
          holder.prepareStatement(
              "INSERT INTO operation (id, account_id, kind, amount, created_at)"
                  + " VALUES ('op_holder_' || md5(random()::text), ?, 'deposit', 1, now())"
                  + " RETURNING id")) {
        insert.setString(1, acc);
        try (var rs = insert.executeQuery()) {
          rs.next();
          held = rs.getString(1);
        }
      }
      holder.commit();
      String waited = waiting.get();
      assertThat(seq(waited)).isGreaterThan(seq(held));
    }
  }

  private long seq(String operationId) {
    return jdbc.sql("SELECT seq FROM operation WHERE id = :id")
        .param("id", operationId)
        .query(Long.class)
        .single();
  }

  private String balance() {
    return jdbc.sql("SELECT balance::text FROM account WHERE id = :id")
        .param("id", account)
        .query(String.class)
        .single();
  }

  /** Everything the forbidden statements could touch, as one comparable string. */
  private String ledgerState() {
    return jdbc.sql(
            """
            SELECT (SELECT count(*) FROM account) || '/' || (SELECT sum(balance) FROM account)
                || '/' || (SELECT count(*) FROM operation) || '/' || (SELECT sum(amount) FROM operation)
                || '/' || (SELECT count(*) FROM payment) || '/' || (SELECT count(*) FROM client)
                || '/' || (SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal)
            """)
        .query(String.class)
        .single();
  }

  private static String quoted(String value) {
    return "'" + value.replace("'", "''") + "'";
  }
}
