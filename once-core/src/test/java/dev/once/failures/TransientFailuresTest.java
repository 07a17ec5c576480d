package dev.once.failures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxException;
import dev.once.outbox.OutboxMessage;
import dev.once.postgres.PostgresStores;
import dev.once.testing.TestDatabase;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.PSQLState;
import org.postgresql.util.ServerErrorMessage;

/**
 * Which failures a retry may cure: by SQLSTATE through any cause chain, and for the failures a real
 * PostgreSQL raises on the outbox insert (a lock timeout, a statement timeout, a terminated
 * session) as the outbox wraps them.
 */
class TransientFailuresTest {
  private final Outbox outbox = PostgresStores.outbox();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "08000", "08001", "08003", "08006", "08P01", "53000", "53100", "53200", "53300", "53400",
        "40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "57P05", "25P03", "25P04",
        "25006", "57P04"
      })
  void retryableStates(String sqlState) {
    assertThat(TransientFailures.isTransientSqlState(sqlState)).isTrue();
    assertThat(TransientFailures.isTransient(new SQLException("x", sqlState))).isTrue();
  }

  /** Constraints, bad data, bugs: the same request fails the same way. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "23505", "23514", "22003", "22P02", "42601", "42P01", "40000", "25P02", "XX000", "P0001", ""
      })
  void statesThatFailAgain(String sqlState) {
    assertThat(TransientFailures.isTransientSqlState(sqlState)).isFalse();
    assertThat(TransientFailures.isTransient(new SQLException("x", sqlState))).isFalse();
  }

  @Test
  void theStateIsFoundBehindWrappers() {
    SQLException deadlock = new SQLException("deadlock detected", "40P01");
    RuntimeException wrapped = new RuntimeException(new IllegalStateException(deadlock));
    assertThat(TransientFailures.isTransient(wrapped)).isTrue();
    assertThat(TransientFailures.sqlState(wrapped)).contains("40P01");
  }

  @Test
  void noSqlExceptionIsNotTransient() {
    assertThat(TransientFailures.isTransient(new IllegalStateException("bug"))).isFalse();
    assertThat(TransientFailures.sqlState(new IllegalStateException("bug"))).isEmpty();
  }

  /** What a pool throws when no connection became free in time: no SQLSTATE, a JDBC type. */
  @Test
  void aTransientJdbcTypeWithoutStateIsTransient() {
    assertThat(
            TransientFailures.isTransient(
                new RuntimeException(new SQLTransientConnectionException("pool timed out"))))
        .isTrue();
  }

  /**
   * The driver's exceptions as a dead server produces them: each SQLSTATE of the classes 08, 57P
   * and 53, with the I/O failure the driver keeps as cause, behind a wrapper as Spring or Once adds
   * one.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {"08001", "08003", "08004", "08006", "08P01", "57P01", "57P02", "57P03", "53300"})
  void theDriversExceptionOfADeadServerIsTransient(String sqlState) {
    PSQLException driver =
        new PSQLException(
            new ServerErrorMessage("SFATAL\0C" + sqlState + "\0Mterminating connection\0"));
    assertThat(driver.getSQLState()).isEqualTo(sqlState);
    assertThat(TransientFailures.isTransient(driver)).isTrue();
    RuntimeException wrapped = new RuntimeException("Could not commit JDBC transaction", driver);
    assertThat(TransientFailures.isTransient(wrapped)).isTrue();
    assertThat(TransientFailures.condition(wrapped)).isEqualTo("SQLSTATE " + sqlState);
  }

  /** What pgJDBC raises for a refused, a reset and a closed connection. */
  @Test
  void pgJdbcsConnectionStatesAreTransient() {
    assertThat(
            TransientFailures.isTransient(
                new PSQLException(
                    "An I/O error occurred while sending to the backend.",
                    PSQLState.CONNECTION_FAILURE,
                    new SocketException("Connection reset"))))
        .isTrue();
    assertThat(
            TransientFailures.isTransient(
                new PSQLException(
                    "An I/O error occurred while sending to the backend.",
                    PSQLState.CONNECTION_FAILURE,
                    new EOFException())))
        .isTrue();
    assertThat(
            TransientFailures.isTransient(
                new PSQLException(
                    "Connection to localhost:5432 refused.",
                    PSQLState.CONNECTION_UNABLE_TO_CONNECT,
                    new ConnectException("Connection refused"))))
        .isTrue();
    assertThat(
            TransientFailures.isTransient(
                new PSQLException(
                    "This connection has been closed.", PSQLState.CONNECTION_DOES_NOT_EXIST)))
        .isTrue();
  }

  /**
   * Hikari's pool time-out: a {@link SQLTransientConnectionException} whose SQLSTATE is that of the
   * last failed attempt to connect, if any, and whose cause is that attempt.
   */
  @Test
  void aPoolTimeOutIsTransientWithOrWithoutTheLastConnectionFailure() {
    SQLTransientConnectionException bare =
        new SQLTransientConnectionException("shop - Connection is not available");
    SQLTransientConnectionException withCause =
        new SQLTransientConnectionException(
            "shop - Connection is not available",
            "08001",
            new PSQLException(
                "Connection refused",
                PSQLState.CONNECTION_UNABLE_TO_CONNECT,
                new ConnectException()));
    assertThat(TransientFailures.isTransient(new RuntimeException(bare))).isTrue();
    assertThat(TransientFailures.condition(new RuntimeException(bare)))
        .isEqualTo("no connection became free within the pool's connection-timeout");
    assertThat(TransientFailures.isTransient(new RuntimeException(withCause))).isTrue();
  }

  /** The JDBC types for a broken connection count even without a SQLSTATE. */
  @Test
  void jdbcConnectionTypesWithoutStateAreTransient() {
    assertThat(TransientFailures.isTransient(new SQLRecoverableException("gone"))).isTrue();
    assertThat(
            TransientFailures.isTransient(
                new RuntimeException(new SQLNonTransientConnectionException("refused"))))
        .isTrue();
  }

  /**
   * Hikari's answer to any call on a connection it evicted as broken, e.g. Spring's rollback after
   * a commit that lost the server: no SQLSTATE, no cause.
   */
  @Test
  void aStatelessSqlExceptionOfThePoolIsTransient() {
    SQLException closed = new SQLException("Connection is closed");
    assertThat(TransientFailures.isTransient(new RuntimeException("JDBC rollback failed", closed)))
        .isTrue();
    assertThat(TransientFailures.condition(closed)).isEqualTo("SQLException");
  }

  /** A stateless wrapper of the server's report is what that report's SQLSTATE says. */
  @Test
  void aStatelessWrapperOfANonTransientStateIsNotTransient() {
    SQLException wrapper =
        new SQLException("batch failed", new SQLException("duplicate key", "23505"));
    assertThat(TransientFailures.isTransient(wrapper)).isFalse();
  }

  /** A stateless SQLException over a socket failure is the driver losing its connection. */
  @Test
  void anIoFailureBeneathAStatelessSqlExceptionIsTransient() {
    SQLException reset = new SQLException("I/O error", new SocketException("Connection reset"));
    assertThat(TransientFailures.isTransient(new RuntimeException(reset))).isTrue();
    assertThat(TransientFailures.condition(reset)).isEqualTo("SocketException");
    assertThat(TransientFailures.isTransient(new SQLException("eof", new EOFException()))).isTrue();
  }

  /**
   * An I/O failure that no SQLException wraps is not the database's (a client that went away), and
   * one beneath a SQLException that has a non-transient SQLSTATE is what that state says.
   */
  @Test
  void anIoFailureElsewhereIsNotTransient() {
    assertThat(TransientFailures.isTransient(new IOException("Broken pipe"))).isFalse();
    assertThat(TransientFailures.isTransient(new RuntimeException(new EOFException()))).isFalse();
    assertThat(
            TransientFailures.isTransient(
                new SQLException("bad stream parameter", "22023", new IOException("read"))))
        .isFalse();
  }

  @Test
  void aCycleOfCausesEndsTheWalk() {
    RuntimeException a = new RuntimeException("a");
    RuntimeException b = new RuntimeException("b", a);
    a.initCause(b);
    assertThat(TransientFailures.isTransient(a)).isFalse();
    assertThat(TransientFailures.sqlState(a)).isEmpty();
  }

  @Test
  void aLockTimeoutOnTheOutboxInsertIsTransient() throws SQLException {
    OutboxException failure = appendWhileTheOutboxIsLocked("SET LOCAL lock_timeout = '1ms'");
    assertThat(TransientFailures.sqlState(failure)).contains("55P03");
    assertThat(TransientFailures.isTransient(failure)).isTrue();
  }

  @Test
  void aStatementTimeoutOnTheOutboxInsertIsTransient() throws SQLException {
    OutboxException failure = appendWhileTheOutboxIsLocked("SET LOCAL statement_timeout = '1ms'");
    assertThat(TransientFailures.sqlState(failure)).contains("57014");
    assertThat(TransientFailures.isTransient(failure)).isTrue();
  }

  @Test
  void aTerminatedSessionIsTransient() throws SQLException {
    try (Connection tx = TestDatabase.transaction();
        Connection admin = TestDatabase.dataSource().getConnection()) {
      int pid = backendPid(tx);
      try (Statement s = admin.createStatement()) {
        s.execute("SELECT pg_terminate_backend(" + pid + ", 60000)");
      }
      OutboxException failure = append(tx);
      // 57P01 if the driver reads the server's farewell, 08006 if it only sees the socket close.
      assertThat(TransientFailures.sqlState(failure))
          .hasValueSatisfying(state -> assertThat(state).isIn("57P01", "08006", "08003"));
      assertThat(TransientFailures.isTransient(failure)).isTrue();
    }
  }

  /**
   * A server in {@code default_transaction_read_only}, as a demoted primary or a standby behind the
   * same address is after a failover: the outbox insert fails with 25006, a retry on another
   * connection may reach the new primary, and the connection is useless for writes.
   */
  @Test
  void anInsertOnAReadOnlyServerIsTransientAndItsConnectionUseless() throws SQLException {
    try (Connection tx = TestDatabase.transaction()) {
      try (Statement s = tx.createStatement()) {
        s.execute("SET TRANSACTION READ ONLY");
      }
      OutboxException failure = append(tx);
      tx.rollback();
      assertThat(TransientFailures.sqlState(failure)).contains("25006");
      assertThat(TransientFailures.isTransient(failure)).isTrue();
      assertThat(TransientFailures.leavesConnectionUseless("25006")).isTrue();
    }
  }

  @Test
  void onlyFailoverStatesLeaveAConnectionUseless() {
    assertThat(TransientFailures.leavesConnectionUseless("57P04")).isTrue();
    assertThat(TransientFailures.leavesConnectionUseless("40001")).isFalse();
    assertThat(TransientFailures.leavesConnectionUseless("23505")).isFalse();
    assertThat(TransientFailures.leavesConnectionUseless("08006")).isFalse();
  }

  @Test
  void aBugInTheStatementIsNotTransient() throws SQLException {
    try (Connection tx = TestDatabase.transaction();
        Statement s = tx.createStatement()) {
      SQLException syntax = (SQLException) catchThrowable(() -> s.execute("SELEC 1"));
      assertThat(syntax.getSQLState()).isEqualTo("42601");
      assertThat(TransientFailures.isTransient(syntax)).isFalse();
      tx.rollback();
    }
  }

  /**
   * Appends in a transaction that first runs {@code setting}, while another transaction holds a
   * lock on the outbox that the insert needs: the insert cannot succeed, whatever the timing.
   */
  private OutboxException appendWhileTheOutboxIsLocked(String setting) throws SQLException {
    try (Connection holder = TestDatabase.transaction();
        Connection tx = TestDatabase.transaction()) {
      try (Statement s = holder.createStatement()) {
        s.execute("LOCK TABLE once.outbox IN SHARE MODE");
      }
      try (Statement s = tx.createStatement()) {
        s.execute(setting);
      }
      OutboxException failure = append(tx);
      tx.rollback();
      holder.rollback();
      return failure;
    }
  }

  private OutboxException append(Connection tx) {
    Throwable thrown =
        catchThrowable(
            () ->
                outbox.append(
                    tx, new OutboxMessage("test.transient", "agg-" + UUID.randomUUID(), "{}")));
    assertThat(thrown).isInstanceOf(OutboxException.class);
    return (OutboxException) thrown;
  }

  private static int backendPid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        var rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
