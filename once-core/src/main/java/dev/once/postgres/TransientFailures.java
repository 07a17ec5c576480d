package dev.once.postgres;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Tells a PostgreSQL failure that a retry of the whole transaction may cure (the database was busy,
 * restarting, unreachable, or chose this transaction as a victim) from one that will fail again the
 * same way (a bug, a constraint, bad data). Callers answer the first kind with "retry later" (HTTP
 * 503 with {@code Retry-After}; the outbox relay: another attempt) and the second as an error.
 *
 * <p>The decision is made by SQLSTATE alone, never by message text or driver class, so it holds for
 * any PostgreSQL driver and message language. The failure is transient if any {@link SQLException}
 * in its cause chain has one of these SQLSTATEs:
 *
 * <ul>
 *   <li>class {@code 08}, connection exception: the connection broke or could not be made;
 *   <li>class {@code 53}, insufficient resources: the server ran out of connection slots, memory,
 *       disk or a configured limit at that moment, a property of the server's load, not of the
 *       request;
 *   <li>{@code 40001} serialization_failure and {@code 40P01} deadlock_detected: PostgreSQL aborted
 *       this transaction so that a concurrent one could go on; the documented reaction is to retry;
 *   <li>{@code 55P03} lock_not_available: {@code lock_timeout} or {@code NOWAIT} gave up on a lock
 *       that another transaction holds;
 *   <li>{@code 57014} query_canceled: {@code statement_timeout} (Once's lease among them) or an
 *       operator's {@code pg_cancel_backend}. The transaction rolled back and its idempotency key
 *       is free again; what made the statement slow (a lock held by a hung transaction, a load
 *       spike) usually passes. A statement that is always too slow stays a 503, visible in the log;
 *   <li>{@code 57P01} admin_shutdown, {@code 57P02} crash_shutdown, {@code 57P03}
 *       cannot_connect_now (starting up or in recovery), {@code 57P05} idle_session_timeout: the
 *       server ended or refused the session; a new one will work once it is back;
 *   <li>{@code 25P03} idle_in_transaction_session_timeout (Once's lease) and {@code 25P04}
 *       transaction_timeout: the server ended a session whose transaction ran too long; it rolled
 *       back, and a retry runs on a fresh session.
 * </ul>
 *
 * <p>{@code 57P04} database_dropped is deliberately not transient: no retry brings the database
 * back. A {@link SQLTransientException} (the JDBC type for "a retry may succeed", e.g. a connection
 * pool that had no free connection within its timeout and reports no SQLSTATE) is transient too.
 *
 * <p>Stateless and thread-safe.
 */
public final class TransientFailures {
  private TransientFailures() {}

  /** Whether a retry of the whole transaction may succeed where {@code failure} failed. */
  public static boolean isTransient(Throwable failure) {
    for (Throwable t : causeChain(failure)) {
      if (t instanceof SQLTransientException) {
        return true;
      }
      if (t instanceof SQLException sql
          && sql.getSQLState() != null
          && isTransientSqlState(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code sqlState} is one of the transient conditions listed on this class. */
  public static boolean isTransientSqlState(String sqlState) {
    return switch (sqlState) {
      case "40001",
          "40P01",
          "55P03",
          "57014",
          "57P01",
          "57P02",
          "57P03",
          "57P05",
          "25P03",
          "25P04" ->
          true;
      default -> sqlState.startsWith("08") || sqlState.startsWith("53");
    };
  }

  /**
   * The SQLSTATE of the first {@link SQLException} in {@code failure}'s cause chain that has one;
   * wrappers (Spring's, Once's own) carry none.
   */
  public static Optional<String> sqlState(Throwable failure) {
    return sqlException(failure).map(SQLException::getSQLState);
  }

  /**
   * The first {@link SQLException} in {@code failure}'s cause chain that has a SQLSTATE: the one
   * that says what the server (or driver) refused.
   */
  public static Optional<SQLException> sqlException(Throwable failure) {
    for (Throwable t : causeChain(failure)) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        return Optional.of(sql);
      }
    }
    return Optional.empty();
  }

  /**
   * Names a failure's condition from a small fixed set, for a log line or a throttled log's key:
   * its SQLSTATE, or for a connection pool that found no free connection in time (and reports no
   * SQLSTATE) that fact, or else the failure's type. Never message text, which may quote data.
   */
  public static String condition(Throwable failure) {
    Optional<String> state = sqlState(failure);
    if (state.isPresent()) {
      return "SQLSTATE " + state.get();
    }
    for (Throwable t : causeChain(failure)) {
      if (t instanceof SQLTransientConnectionException) {
        return "no connection became free within the pool's connection-timeout";
      }
    }
    return failure.getClass().getSimpleName();
  }

  /** {@code failure} and its causes, outermost first; a cycle of causes ends the walk. */
  private static List<Throwable> causeChain(Throwable failure) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
