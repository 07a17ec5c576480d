package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxException;
import dev.once.outbox.OutboxMessage;
import dev.once.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which failures a retry may cure: by SQLSTATE through any cause chain, and for the failures a real
 * PostgreSQL raises on the outbox insert (a lock timeout, a statement timeout, a terminated
 * session) as the outbox wraps them.
 */
class TransientFailuresTest {
  private final Outbox outbox = PostgresStores.outbox(Clock.systemUTC());

  @ParameterizedTest
  @ValueSource(
      strings = {
        "08000", "08001", "08003", "08006", "08P01", "53000", "53100", "53200", "53300", "53400",
        "40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "57P05", "25P03", "25P04"
      })
  void retryableStates(String sqlState) {
    assertThat(TransientFailures.isTransientSqlState(sqlState)).isTrue();
    assertThat(TransientFailures.isTransient(new SQLException("x", sqlState))).isTrue();
  }

  /** Constraints, bad data, bugs, a dropped database: the same request fails the same way. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "23505", "23514", "22003", "22P02", "42601", "42P01", "40000", "25P02", "57P04", "XX000",
        "P0001", ""
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
    assertThat(TransientFailures.isTransient(new SQLException("no state"))).isFalse();
  }

  /** What a pool throws when no connection became free in time: no SQLSTATE, a JDBC type. */
  @Test
  void aTransientJdbcTypeWithoutStateIsTransient() {
    assertThat(
            TransientFailures.isTransient(
                new RuntimeException(new SQLTransientConnectionException("pool timed out"))))
        .isTrue();
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
