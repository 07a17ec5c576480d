package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.shop.web.DatabaseErrors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;

/**
 * G4 in the database: journal rows cannot be changed or removed by anyone, whatever SQL they send,
 * and balances are kept by the same statements that write the journal.
 */
class LedgerTest extends ShopIntegrationTest {
  private String account;
  private String operation;

  @BeforeEach
  void oneDeposit() {
    TestClient client = newClient();
    account = client.openAccount("EUR");
    operation = client.deposit(account, "10").text("operationId");
  }

  @Test
  void updateOfAnOperationIsRejectedByTheDatabase() {
    assertRejectedByTrigger("UPDATE operation SET amount = 1000 WHERE id = '" + operation + "'");
    assertRejectedByTrigger("UPDATE operation SET kind = 'deposit'");
  }

  @Test
  void deleteOfAnOperationIsRejectedByTheDatabase() {
    assertRejectedByTrigger("DELETE FROM operation WHERE id = '" + operation + "'");
    assertRejectedByTrigger("DELETE FROM operation");
  }

  @Test
  void truncateOfTheJournalIsRejectedByTheDatabase() {
    // CASCADE gets past the foreign keys to the statement-level trigger.
    assertRejectedByTrigger("TRUNCATE operation CASCADE");
    // Plain TRUNCATE already fails on the foreign keys; either way nothing is removed.
    long rows = operationCount();
    catchThrowableOfType(DataAccessException.class, () -> jdbc.sql("TRUNCATE operation").update());
    assertThat(operationCount()).isEqualTo(rows);
  }

  @Test
  void balanceCannotGoNegativeEvenByDirectSql() {
    DataAccessException e =
        catchThrowableOfType(
            DataAccessException.class,
            () ->
                jdbc.sql("UPDATE account SET balance = -1 WHERE id = :id")
                    .param("id", account)
                    .update());
    assertThat(DatabaseErrors.sqlState(e)).hasValue("23514");
    assertThat(DatabaseErrors.constraint(e)).hasValue("account_balance_non_negative");
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

  private void assertRejectedByTrigger(String sql) {
    long rows = operationCount();
    DataAccessException e =
        catchThrowableOfType(DataAccessException.class, () -> jdbc.sql(sql).update());
    assertThat(e).as("%s must fail", sql).isNotNull();
    assertThat(DatabaseErrors.sqlState(e)).hasValue(DatabaseErrors.APPEND_ONLY_VIOLATION);
    assertThat(operationCount()).isEqualTo(rows);
    assertThat(
            jdbc.sql("SELECT amount::text FROM operation WHERE id = :id")
                .param("id", operation)
                .query(String.class)
                .single())
        .isEqualTo("10.0000");
  }

  private long operationCount() {
    return jdbc.sql("SELECT count(*) FROM operation").query(Long.class).single();
  }
}
