package dev.once.failures;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
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
 * <p>The decision is made by SQLSTATE and by the standard JDBC and I/O exception types below, never
 * by message text or a driver's own classes, so it holds for any PostgreSQL driver, pool and
 * message language. The failure is transient if any {@link SQLException} in its cause chain has one
 * of these SQLSTATEs:
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
 *       back, and a retry runs on a fresh session;
 *   <li>{@code 25006} read_only_sql_transaction and {@code 57P04} database_dropped: what a failover
 *       looks like from a connection that still reaches the old server, behind a DNS name or a
 *       virtual IP that now points elsewhere, or a server put into {@code
 *       default_transaction_read_only} for maintenance: the server is up but cannot take this
 *       write. A retry on a new connection reaches the new primary. Such a connection is useless
 *       for writes, so a pool should drop it rather than lend it again: {@link
 *       #leavesConnectionUseless} names these states for pools' eviction hooks (Once's Spring Boot
 *       starter installs one in HikariCP). A write inside a transaction that the application itself
 *       declared read-only fails with {@code 25006} as well; that is a bug, answered 503 like a
 *       failover, and visible in the log's SQLSTATE.
 * </ul>
 *
 * <p>A failure is transient as well if its cause chain holds one of these exception types, which
 * report a connection failure without (or before) a SQLSTATE:
 *
 * <ul>
 *   <li>{@link SQLTransientException}, the JDBC type for "a retry may succeed", e.g. the {@link
 *       SQLTransientConnectionException} of a connection pool that had no free connection within
 *       its timeout and reports no SQLSTATE;
 *   <li>{@link SQLRecoverableException} and {@link SQLNonTransientConnectionException}, the JDBC
 *       types for a connection that broke or could not be made (SQLSTATE class {@code 08});
 *   <li>a {@link SQLException} without a SQLSTATE, if no {@code SQLException} in the chain has one:
 *       the server reports every error with a SQLSTATE and pgJDBC gives its own errors one, so a
 *       stateless one is the pool's or the connection proxy's report about the connection: Hikari's
 *       {@code Connection is closed} on a connection it evicted as broken (met by the rollback
 *       after a commit that lost the server), a driver's I/O failure ({@link IOException}: refused,
 *       reset, end of stream) without a state. An {@code IOException} outside a {@code
 *       SQLException}, such as a client that went away, is not a database failure.
 * </ul>
 *
 * <p>This is the one classification of "the database cannot serve this now" for the library and the
 * applications on it: everything that answers an HTTP request (authentication, Once's idempotency
 * filter, a handler, its commit, the error page) asks {@link #isTransient} and answers a transient
 * failure 503 with {@code Retry-After}, never 500. Wrappers of any library (Spring's {@code
 * DataAccessException}, {@code CannotCreateTransactionException}, {@code
 * TransactionSystemException}, Once's own) need no rule of their own: they keep the driver's or the
 * pool's exception as their cause, and the cause decides.
 *
 * <p>Stateless and thread-safe.
 */
public final class TransientFailures {
  private TransientFailures() {}

  /**
   * Whether a retry of the whole transaction may succeed where {@code failure} failed: by the
   * SQLSTATEs and exception types listed on this class, anywhere in its cause chain.
   */
  public static boolean isTransient(Throwable failure) {
    boolean sqlExceptionWithState = false;
    boolean sqlExceptionWithoutState = false;
    for (Throwable t : causeChain(failure)) {
      if (t instanceof SQLTransientException
          || t instanceof SQLRecoverableException
          || t instanceof SQLNonTransientConnectionException) {
        return true;
      }
      if (t instanceof SQLException sql) {
        if (sql.getSQLState() == null) {
          sqlExceptionWithoutState = true;
        } else if (isTransientSqlState(sql.getSQLState())) {
          return true;
        } else {
          sqlExceptionWithState = true;
        }
      }
    }
    // Only SQLExceptions without a SQLSTATE: the pool's or the connection proxy's own report about
    // the connection, not the server's (which gives every error a SQLSTATE, as pgJDBC does its
    // own).
    return sqlExceptionWithoutState && !sqlExceptionWithState;
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
          "25P04",
          "25006",
          "57P04" ->
          true;
      default -> sqlState.startsWith("08") || sqlState.startsWith("53");
    };
  }

  /**
   * Whether a connection that failed with {@code sqlState} should be closed rather than lent again:
   * {@code 25006} read_only_sql_transaction and {@code 57P04} database_dropped, after which every
   * write on it fails the same way until it is replaced (a pool that lends it again serves failures
   * until its {@code maxLifetime}). Class {@code 08} is not listed: pools already drop a connection
   * that broke.
   */
  public static boolean leavesConnectionUseless(String sqlState) {
    return "25006".equals(sqlState) || "57P04".equals(sqlState);
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
   * SQLSTATE) that fact, or else the type of the connection failure or of the failure itself. Never
   * message text, which may quote data.
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
    for (Throwable t : causeChain(failure)) {
      if (t instanceof SQLTransientException
          || t instanceof SQLRecoverableException
          || t instanceof SQLNonTransientConnectionException
          || t instanceof IOException) {
        return t.getClass().getSimpleName();
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
