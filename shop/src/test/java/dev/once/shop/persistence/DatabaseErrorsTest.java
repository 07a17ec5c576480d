package dev.once.shop.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.problems.ShopProblem;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.UncategorizedSQLException;

/** SQLSTATEs to problems, without a database. */
class DatabaseErrorsTest {

  /** Data exceptions only a client's value can cause: a 400, not a 500 with a stack trace. */
  @ParameterizedTest
  @ValueSource(strings = {"22021", "22P05", "22001", "22026"})
  void valuesTheDatabaseCannotStoreAreBadRequests(String sqlState) {
    assertThat(DatabaseErrors.classify(failure(sqlState))).contains(ShopProblem.BAD_REQUEST);
  }

  @Test
  void aNulInTextIsABadRequest() {
    // What PostgreSQL answers to a parameter holding U+0000.
    SQLException nul =
        new SQLException("ERROR: invalid byte sequence for encoding \"UTF8\": 0x00", "22021");
    assertThat(DatabaseErrors.classify(new DataIntegrityViolationException("select", nul)))
        .contains(ShopProblem.BAD_REQUEST);
  }

  /** Once's list of transient SQLSTATEs decides, so the shop and the outbox relay agree. */
  @ParameterizedTest
  @ValueSource(strings = {"40001", "40P01", "55P03", "57014", "57P01", "53300", "08006", "25P03"})
  void transientFailuresAreServiceUnavailable(String sqlState) {
    assertThat(DatabaseErrors.classify(failure(sqlState)))
        .contains(ShopProblem.SERVICE_UNAVAILABLE);
  }

  @Test
  void outOfRangeAmountsKeepTheirOwnProblem() {
    assertThat(DatabaseErrors.classify(failure("22003"))).contains(ShopProblem.AMOUNT_OUT_OF_RANGE);
  }

  /** Other data exceptions can only come from the shop's own statements: bugs, so a 500. */
  @ParameterizedTest
  @ValueSource(strings = {"22012", "22P02", "22023", "22004", "22007", "42601", "XX000"})
  void everythingElseStaysAnInternalError(String sqlState) {
    assertThat(DatabaseErrors.classify(failure(sqlState))).isEmpty();
  }

  private static UncategorizedSQLException failure(String sqlState) {
    return new UncategorizedSQLException("test", "SELECT 1", new SQLException("x", sqlState));
  }
}
