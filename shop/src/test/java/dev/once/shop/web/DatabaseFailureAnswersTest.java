package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.problems.ProblemResponses;
import dev.once.spring.OnceProperties;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Every shape in which an unreachable database reaches the shop's answer — the driver's exceptions
 * of a refused, reset, closed or terminated connection, Hikari's pool time-out, and Spring's
 * wrappers of them at the transaction's begin and commit — is answered 503 {@code
 * service-unavailable} with {@code Retry-After}, whether a handler or a filter raised it.
 */
class DatabaseFailureAnswersTest {
  private final ProblemResponses problems = new ProblemResponses(OnceProperties.defaults());
  private final ProblemExceptionHandler handler =
      new ProblemExceptionHandler(problems, new DatabaseUnavailable(problems, Clock.systemUTC()));

  static Stream<Arguments> outages() {
    PSQLException refused =
        new PSQLException(
            "Connection to localhost:5432 refused.",
            PSQLState.CONNECTION_UNABLE_TO_CONNECT,
            new ConnectException("Connection refused"));
    PSQLException reset =
        new PSQLException(
            "An I/O error occurred while sending to the backend.",
            PSQLState.CONNECTION_FAILURE,
            new SocketException("Connection reset"));
    PSQLException endOfStream =
        new PSQLException(
            "An I/O error occurred while sending to the backend.",
            PSQLState.CONNECTION_FAILURE,
            new EOFException());
    PSQLException closed =
        new PSQLException("This connection has been closed.", PSQLState.CONNECTION_DOES_NOT_EXIST);
    SQLTransientConnectionException poolTimeOut =
        new SQLTransientConnectionException(
            "shop - Connection is not available, request timed out after 250ms", "08001", refused);
    return Stream.of(
        Arguments.of("connection refused", new CannotGetJdbcConnectionException("get", refused)),
        Arguments.of(
            "pool time-out at the transaction's begin",
            new CannotCreateTransactionException("Could not open JDBC Connection", poolTimeOut)),
        Arguments.of(
            "pool time-out without a last failure",
            new CannotCreateTransactionException(
                "Could not open JDBC Connection",
                new SQLTransientConnectionException("shop - Connection is not available"))),
        Arguments.of(
            "connection reset at the commit",
            new TransactionSystemException("Could not commit JDBC transaction", reset)),
        Arguments.of(
            "end of stream at the commit",
            new TransactionSystemException("Could not commit JDBC transaction", endOfStream)),
        Arguments.of(
            "closed connection at the rollback",
            new TransactionSystemException("Could not roll back JDBC transaction", closed)),
        Arguments.of(
            "Hikari's closed connection at the rollback after a lost commit",
            new TransactionSystemException(
                "JDBC rollback failed", new SQLException("Connection is closed"))),
        Arguments.of("terminated backend (translated)", translated(server("57P01"))),
        Arguments.of("crash of another backend (translated)", translated(server("57P02"))),
        Arguments.of("server starting or shutting down", stateTranslated(server("57P03"))),
        Arguments.of("too many clients", translated(server("53300"))),
        Arguments.of(
            "driver I/O failure without a SQLSTATE, in Once's wrapper",
            new IllegalStateException(
                "could not claim", new SQLException("I/O", new EOFException()))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outages")
  void isA503WithRetryAfter(String name, RuntimeException failure) {
    ResponseEntity<Object> answer = handler.outsideSpringMvc(failure);

    assertThat(answer.getStatusCode().value()).isEqualTo(503);
    assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
    assertThat(((org.springframework.http.ProblemDetail) answer.getBody()).getType().toString())
        .endsWith("/service-unavailable");
  }

  private static PSQLException server(String sqlState) {
    return new PSQLException(
        new ServerErrorMessage("SFATAL\0C" + sqlState + "\0Mterminating connection\0"));
  }

  private static DataAccessException translated(SQLException e) {
    return new SQLErrorCodeSQLExceptionTranslator("PostgreSQL").translate("select", "SELECT 1", e);
  }

  private static DataAccessException stateTranslated(SQLException e) {
    return new SQLStateSQLExceptionTranslator().translate("select", "SELECT 1", e);
  }
}
