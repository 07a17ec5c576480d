package dev.once.idempotency;

import dev.once.failures.TransientFailures;
import dev.once.log.ThrottledLog;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link IdempotencyEngine#execute}: one request under an idempotency key, from the claim to its
 * outcome, on the engine's public rules alone. Stateless beyond its arguments; one instance per
 * request.
 *
 * <p>Every transaction it begins ends in {@link #inTransaction}: committed by the step that ran in
 * it, or else rolled back there, also when the step throws. What follows a rolled-back transaction
 * (storing a refusal under a new claim, reading what another request stored) runs only after it
 * ended, so it never waits for the key's lock this request still holds.
 */
final class KeyedRequest {
  private static final Logger log = LoggerFactory.getLogger(IdempotencyEngine.class);

  /** Least time between two warnings about one transient database condition. */
  static final Duration TRANSIENT_LOG_INTERVAL = Duration.ofSeconds(10);

  /**
   * Transient database failures (a full pool, a restarting server) meet every request while they
   * last: one line per condition and interval, without a stack trace, instead of one per request.
   */
  private static final ThrottledLog transientLog =
      new ThrottledLog(log, TRANSIENT_LOG_INTERVAL, Clock.systemUTC());

  private final IdempotencyEngine engine;
  private final IdempotentTransactions transactions;
  private final IdempotentRequest request;
  private final Duration retention;

  KeyedRequest(
      IdempotencyEngine engine, IdempotentTransactions transactions, IdempotentRequest request) {
    this.engine = engine;
    this.transactions = transactions;
    this.request = request;
    this.retention = request.retention() != null ? request.retention() : engine.retention();
  }

  /** What a transaction decided: whether it committed, and what follows once it has ended. */
  private record Decision(boolean committed, Supplier<IdempotentOutcome> next) {
    static Decision rolledBack(Supplier<IdempotentOutcome> next) {
      return new Decision(false, next);
    }

    static Decision committed(IdempotentOutcome outcome) {
      return new Decision(true, () -> outcome);
    }
  }

  /** The work of one transaction; {@code E} is what a handler may throw. */
  private interface Step<E extends Exception> {
    Decision decide(IdempotentTransactions.Transaction tx) throws E;
  }

  <E extends Exception> IdempotentOutcome run(IdempotentHandler<E> handler) throws E {
    IdempotentTransactions.Transaction tx;
    try {
      tx = transactions.begin();
    } catch (RuntimeException e) {
      warnFailed("Could not begin the transaction of an idempotent request", e);
      return new IdempotentOutcome.Unavailable(e, false);
    }
    return inTransaction(tx, t -> claimAndHandle(t, handler));
  }

  /**
   * Runs {@code step} in {@code tx} and ends {@code tx}: the step committed it, or it is rolled
   * back here, whatever the step returned or threw (a handler may throw anything). Then what
   * follows.
   */
  private <E extends Exception> IdempotentOutcome inTransaction(
      IdempotentTransactions.Transaction tx, Step<E> step) throws E {
    Decision decision = null;
    try {
      decision = step.decide(tx);
    } finally {
      if (decision == null || !decision.committed()) {
        rollbackQuietly(tx);
      }
    }
    return decision.next().get();
  }

  private <E extends Exception> Decision claimAndHandle(
      IdempotentTransactions.Transaction tx, IdempotentHandler<E> handler) throws E {
    ClaimResult claim;
    try {
      claim = engine.claim(tx.connection(), request.scope(), request.fingerprint());
    } catch (RuntimeException e) {
      warnFailed("Could not claim an idempotency key", e);
      return Decision.rolledBack(() -> new IdempotentOutcome.Unavailable(e, false));
    }
    if (!(claim instanceof ClaimResult.Acquired acquired)) {
      // Replays, mismatches and in-use answers end the (read-only) claim transaction at once, so
      // a duplicate never holds a connection while the first request runs.
      return Decision.rolledBack(() -> answered(claim, false));
    }
    HandlerAnswer answer = handler.handle(tx.connection());
    if (answer == null) {
      throw new IllegalStateException("the handler of an idempotent request returned no answer");
    }
    return afterHandler(acquired, tx, answer);
  }

  private Decision afterHandler(
      ClaimResult.Acquired acquired, IdempotentTransactions.Transaction tx, HandlerAnswer answer) {
    int status = answer.status();
    if (!answer.storable() || !engine.isStorable(status)) {
      return Decision.rolledBack(() -> new IdempotentOutcome.NotStored(answer));
    }
    if (answer.body().length > request.maxAnswerBytes()) {
      // Too large to store: a refusal goes out as it is (nothing of it committed, so its key may
      // stay free); a success must not commit without its answer, so it is undone and refused.
      return Decision.rolledBack(
          () ->
              status >= 400
                  ? new IdempotentOutcome.NotStored(answer)
                  : new IdempotentOutcome.TooLarge(answer.body().length, request.maxAnswerBytes()));
    }
    StoredResponse stored = answer.stored();
    if (status >= 400) {
      // A rejected request keeps its answer but none of the handler's writes: they roll back
      // with the whole transaction, and the answer is stored under a new claim, once that
      // transaction has ended. This costs a second transaction on the rare refusal path so that
      // the common path needs no savepoint.
      return Decision.rolledBack(() -> storeRefusal(acquired, stored));
    }
    try {
      if (tx.isRollbackOnly()) {
        return Decision.rolledBack(IdempotentOutcome.RollbackOnly::new);
      }
      tx.commit(write(acquired, stored));
      return Decision.committed(new IdempotentOutcome.Executed(stored));
    } catch (KeyTakenException e) {
      // Another request now holds the key, or stored its answer (which the claim's second read
      // makes rare: see once.idempotency_key_claim): this execution must leave no trace, and the
      // client gets what the key holds.
      return Decision.rolledBack(this::answerFromStore);
    } catch (RuntimeException e) {
      // Includes a failed commit: the outcome is then unknown to us, and a retry with the same
      // key either replays the committed answer or executes anew — never twice.
      warnFailed("Could not complete an idempotent request", e);
      return Decision.rolledBack(() -> new IdempotentOutcome.Unavailable(e, true));
    }
  }

  /**
   * Stores the handler's refusal, whose own transaction was rolled back, under a new claim of the
   * key. If another request took the key in between (it was free for that instant), the client gets
   * what a retry would get: that request's answer, a mismatch, or "in use".
   */
  private IdempotentOutcome storeRefusal(ClaimResult.Acquired first, StoredResponse stored) {
    IdempotentTransactions.Transaction tx;
    try {
      tx = transactions.begin();
    } catch (RuntimeException e) {
      warnFailed("Could not begin the transaction that stores a refusal", e);
      return new IdempotentOutcome.Unavailable(e, true);
    }
    return inTransaction(
        tx,
        t -> {
          try {
            ClaimResult claim = engine.claim(t.connection(), first.scope(), first.fingerprint());
            if (!(claim instanceof ClaimResult.Acquired again)) {
              return Decision.rolledBack(() -> answered(claim, true));
            }
            t.commit(write(again, stored));
            return Decision.committed(new IdempotentOutcome.Refused(stored));
          } catch (KeyTakenException e) {
            return Decision.rolledBack(this::answerFromStore);
          } catch (RuntimeException e) {
            warnFailed("Could not store the refusal of an idempotent request", e);
            return Decision.rolledBack(() -> new IdempotentOutcome.Unavailable(e, true));
          }
        });
  }

  /**
   * What the key holds now, after this request's execution was rolled back because it lost the key:
   * claims it again in a new transaction that is rolled back at once. Should the key be free again
   * (the other answer was purged in between), the client is told to retry.
   */
  private IdempotentOutcome answerFromStore() {
    IdempotentTransactions.Transaction tx;
    try {
      tx = transactions.begin();
    } catch (RuntimeException e) {
      warnFailed("Could not read an idempotency key after losing it to another request", e);
      return new IdempotentOutcome.Unavailable(e, true);
    }
    return inTransaction(
        tx,
        t -> {
          ClaimResult claim;
          try {
            claim = engine.claim(t.connection(), request.scope(), request.fingerprint());
          } catch (RuntimeException e) {
            warnFailed("Could not read an idempotency key after losing it to another request", e);
            return Decision.rolledBack(() -> new IdempotentOutcome.Unavailable(e, true));
          }
          ClaimResult held =
              claim instanceof ClaimResult.Acquired
                  ? new ClaimResult.InUse(request.scope(), engine.retryAfter())
                  : claim;
          return Decision.rolledBack(() -> answered(held, true));
        });
  }

  private static IdempotentOutcome answered(ClaimResult claim, boolean ranHandler) {
    if (claim instanceof ClaimResult.Replay replay) {
      return new IdempotentOutcome.Replayed(replay.response(), ranHandler);
    }
    if (claim instanceof ClaimResult.Mismatch) {
      return new IdempotentOutcome.KeyReused(ranHandler);
    }
    if (claim instanceof ClaimResult.InUse inUse) {
      return new IdempotentOutcome.InUse(inUse.retryAfter(), ranHandler);
    }
    throw new IllegalStateException("an acquired claim executes the request");
  }

  private IdempotentTransactions.AnswerWrite write(
      ClaimResult.Acquired claim, StoredResponse stored) {
    return new IdempotentTransactions.AnswerWrite() {
      @Override
      public void write(Connection connection) {
        engine.complete(connection, claim, stored, retention);
      }

      @Override
      public void writeAndCommit(Connection connection) {
        engine.completeAndCommit(connection, claim, stored, retention);
      }
    };
  }

  /**
   * Logs a failure that ends a request as {@link IdempotentOutcome.Unavailable}: a transient one
   * throttled and without a stack trace (its SQLSTATE says what happened), anything else at once
   * with its stack trace (it is unexpected).
   */
  private static void warnFailed(String what, RuntimeException e) {
    if (TransientFailures.isTransient(e)) {
      String condition = TransientFailures.condition(e);
      transientLog.warn(
          what + ": " + condition, () -> what + " (" + condition + "); answered unavailable");
    } else {
      log.warn(what, e);
    }
  }

  private static void rollbackQuietly(IdempotentTransactions.Transaction tx) {
    try {
      tx.rollback();
    } catch (RuntimeException e) {
      // The connection may be gone (killed backend); the database rolls back on its own then.
      log.debug("Rollback of an idempotent request failed", e);
    }
  }
}
