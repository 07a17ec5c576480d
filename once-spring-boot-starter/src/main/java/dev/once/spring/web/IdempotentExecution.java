package dev.once.spring.web;

import dev.once.failures.TransientFailures;
import dev.once.idempotency.ClaimResult;
import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.KeyTakenException;
import dev.once.idempotency.StoredResponse;
import dev.once.log.ThrottledLog;
import dev.once.spring.metrics.IdempotencyMetrics;
import dev.once.spring.metrics.IdempotencyMetrics.Outcome;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs one idempotent request in ONE database transaction: the key claim, every write of the
 * handler that joins the Spring transaction, and the stored answer commit together or not at all.
 *
 * <ul>
 *   <li>2xx and 3xx but 304 (a redirect after a state change is a success answer): the answer is
 *       stored, then the transaction commits, then the answer is sent — a client never sees an
 *       answer that is not durable.
 *   <li>An answer whose body is larger than {@code maxAnswerBytes}: everything rolls back and the
 *       key stays free, before anything commits; a success is answered 422 {@code answer-too-large}
 *       instead (no effect without its stored answer), a refusal is sent as it is, unstored.
 *   <li>A storable 4xx: the whole transaction rolls back, so a rejected request leaves none of its
 *       writes (the transaction synchronizations the handler registered complete as rolled back),
 *       and the answer is stored under a new claim of the key in a second transaction. Should
 *       another request take the key in the instant it is free, the client gets what a retry would
 *       get (that request's answer, a mismatch, or 409 in use).
 *   <li>5xx, a non-storable status, an exception, an answer the handler gave through {@code
 *       sendError} (its body is written by the container later, so it cannot be stored faithfully),
 *       or a 4xx the handler did not produce (an unknown path, a request Spring MVC refused before
 *       calling the handler; see {@link HandlerAnswers}): everything rolls back and the key is
 *       free.
 * </ul>
 *
 * Replays, mismatches and in-use answers roll back the (read-only) claim transaction at once, so a
 * duplicate never holds a connection while the first request runs. The claim writes nothing; the
 * key's one row is written with its answer at the commit, in the same round trip as the {@code
 * COMMIT} when the transaction manager is Spring's JDBC one on Once's DataSource (after every other
 * {@code beforeCommit} callback). If that finds the key taken (another request's answer committed
 * where the claim could not see it), everything rolls back and the client gets what the key holds
 * ({@link KeyTakenException}).
 */
public final class IdempotentExecution {
  private static final Logger log = LoggerFactory.getLogger(IdempotentExecution.class);

  /** Least time between two warnings about one transient database condition. */
  static final Duration TRANSIENT_LOG_INTERVAL = Duration.ofSeconds(10);

  /**
   * Transient database failures (a full pool, a restarting server) meet every request while they
   * last: one line per condition and interval, without a stack trace, instead of one per request.
   */
  private static final ThrottledLog transientLog =
      new ThrottledLog(log, TRANSIENT_LOG_INTERVAL, Clock.systemUTC());

  /** Response header set on every replayed answer. */
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";

  private final IdempotencyEngine engine;
  private final PlatformTransactionManager transactions;
  private final DataSource dataSource;
  private final ProblemResponses problems;
  private final IdempotencyMetrics metrics;
  private final boolean answerWithCommit;
  private final int maxAnswerBytes;

  /**
   * @param maxAnswerBytes largest answer body stored with a key ({@code
   *     once.idempotency.limits.max-answer-size}): a larger success is rolled back and refused with
   *     422 {@code answer-too-large}, a larger refusal is sent but not stored
   */
  public IdempotentExecution(
      IdempotencyEngine engine,
      PlatformTransactionManager transactions,
      DataSource dataSource,
      String problemTypeBase,
      IdempotencyMetrics metrics,
      int maxAnswerBytes) {
    this.engine = engine;
    this.maxAnswerBytes = maxAnswerBytes;
    this.transactions = transactions;
    this.dataSource = dataSource;
    this.problems = new ProblemResponses(problemTypeBase);
    this.metrics = metrics;
    // Spring's JDBC transaction managers commit by Connection.commit() alone, so the answer and
    // the COMMIT can travel in one round trip without anything of the commit being skipped.
    this.answerWithCommit =
        transactions instanceof DataSourceTransactionManager jdbc
            && jdbc.getDataSource() == dataSource;
  }

  /**
   * Runs the request and answers it.
   *
   * @param notNew run when the request turns out to start no new key (a replay, a mismatch, a key
   *     in use, or a claim the database could not make), before any of its answer is written: a
   *     client that sends its next request as soon as it has this answer finds the key's token
   *     already back in its bucket
   */
  void execute(
      IdempotencyScope scope,
      Fingerprint fingerprint,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain,
      Runnable notNew)
      throws IOException, ServletException {
    TransactionStatus tx;
    ClaimResult claim;
    try {
      tx = transactions.getTransaction(newTransaction());
    } catch (RuntimeException e) {
      warnFailed("Could not begin the transaction of an idempotent request", e);
      notNew.run();
      unavailable(response);
      return;
    }
    try {
      Connection connection = DataSourceUtils.getConnection(dataSource);
      claim = engine.claim(connection, scope, fingerprint);
    } catch (RuntimeException e) {
      rollbackQuietly(tx);
      warnFailed("Could not claim an idempotency key", e);
      notNew.run();
      unavailable(response);
      return;
    }
    if (!(claim instanceof ClaimResult.Acquired acquired)) {
      rollbackQuietly(tx);
      notNew.run();
      answerWithoutExecuting(claim, response);
      return;
    }
    runHandler(acquired, tx, request, response, chain);
  }

  private void runHandler(
      ClaimResult.Acquired acquired,
      TransactionStatus tx,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain)
      throws IOException, ServletException {
    BufferedResponse buffered = new BufferedResponse(response);
    try {
      chain.doFilter(request, buffered);
    } catch (Throwable e) {
      // Throwable: a filter may sneak a checked exception through; the transaction must end.
      rollbackQuietly(tx);
      metrics.requestFinished(Outcome.ROLLED_BACK);
      throw e;
    }
    int status = buffered.getStatus();
    if (!engine.isStorable(status)
        || buffered.handedToContainer()
        || (status >= 400 && !HandlerAnswers.producedByHandler(request))) {
      // A refusal is stored only if the handler gave it: an unknown path or a request Spring MVC
      // could not bind never reached it, and a corrected retry with the same key must execute.
      // Successes are always the handler's: nothing before a handler answers a request with one.
      rollbackQuietly(tx);
      metrics.requestFinished(Outcome.ROLLED_BACK);
      buffered.copyBodyToResponse();
      return;
    }
    if (buffered.getContentSize() > maxAnswerBytes) {
      // Too large to store: a refusal goes out as it is (nothing of it committed, so its key may
      // stay free); a success must not commit without its answer, so it is undone and refused.
      rollbackQuietly(tx);
      metrics.requestFinished(Outcome.ROLLED_BACK);
      if (status >= 400) {
        buffered.copyBodyToResponse();
      } else {
        problems.write(
            response,
            OnceProblem.ANSWER_TOO_LARGE,
            "The answer to this request is larger than the "
                + maxAnswerBytes
                + " bytes this service stores for an Idempotency-Key; nothing of it was applied.");
      }
      return;
    }
    StoredResponse answer =
        StoredResponse.of(
            status,
            buffered.getContentType(),
            buffered.getHeader("Location"),
            buffered.getContentAsByteArray());
    if (status >= 400) {
      // A rejected request keeps its answer but none of the handler's writes: they roll back
      // with the whole transaction (its synchronizations complete as rolled back), and the answer
      // is stored under a new claim. This costs a second transaction on the rare refusal path so
      // that the common path needs no savepoint.
      rollbackQuietly(tx);
      storeRefusal(acquired, answer, buffered, response);
      return;
    }
    try {
      if (tx.isRollbackOnly()) {
        rollbackQuietly(tx);
        metrics.requestFinished(Outcome.ROLLED_BACK);
        problems.write(
            response,
            OnceProblem.INTERNAL_ERROR,
            "The request could not be completed and was rolled back; retry with the same"
                + " Idempotency-Key.");
        return;
      }
      Connection connection = DataSourceUtils.getConnection(dataSource);
      if (answerWithCommit && TransactionSynchronizationManager.isSynchronizationActive()) {
        TransactionSynchronizationManager.registerSynchronization(
            new AnswerWithCommit(engine, connection, acquired, answer));
      } else {
        engine.complete(connection, acquired, answer);
      }
      transactions.commit(tx);
      metrics.requestFinished(Outcome.EXECUTED);
    } catch (KeyTakenException e) {
      // Another request now holds the key, or stored its answer (which the claim's second read
      // makes rare: see once.idempotency_key_claim): this execution must leave no trace, and the
      // client gets what the key holds.
      if (!tx.isCompleted()) {
        rollbackQuietly(tx);
      }
      answerFromStore(acquired, response);
      return;
    } catch (RuntimeException e) {
      // Includes a failed commit: the outcome is then unknown to us, and a retry with the same
      // key either replays the committed answer or executes anew — never twice.
      if (!tx.isCompleted()) {
        rollbackQuietly(tx);
      }
      warnFailed("Could not complete an idempotent request", e);
      unavailable(response);
      return;
    }
    buffered.copyBodyToResponse();
  }

  /**
   * Stores the handler's refusal, whose own transaction was rolled back, under a new claim of the
   * key. If another request took the key in between (it was free for that instant), the client gets
   * what a retry would get: that request's answer, a mismatch, or "in use".
   */
  private void storeRefusal(
      ClaimResult.Acquired first,
      StoredResponse answer,
      BufferedResponse buffered,
      HttpServletResponse response)
      throws IOException {
    TransactionStatus tx;
    try {
      tx = transactions.getTransaction(newTransaction());
    } catch (RuntimeException e) {
      metrics.requestFinished(Outcome.ROLLED_BACK);
      warnFailed("Could not begin the transaction that stores a refusal", e);
      unavailable(response);
      return;
    }
    try {
      Connection connection = DataSourceUtils.getConnection(dataSource);
      ClaimResult claim = engine.claim(connection, first.scope(), first.fingerprint());
      if (!(claim instanceof ClaimResult.Acquired again)) {
        rollbackQuietly(tx);
        answerAfterHandler(claim, response);
        return;
      }
      engine.complete(connection, again, answer);
      transactions.commit(tx);
      metrics.requestFinished(Outcome.EXECUTED);
    } catch (KeyTakenException e) {
      rollbackQuietly(tx);
      answerFromStore(first, response);
      return;
    } catch (RuntimeException e) {
      if (!tx.isCompleted()) {
        rollbackQuietly(tx);
      }
      metrics.requestFinished(Outcome.ROLLED_BACK);
      warnFailed("Could not store the refusal of an idempotent request", e);
      unavailable(response);
      return;
    }
    buffered.copyBodyToResponse();
  }

  /**
   * Answers, after this request's execution was rolled back, with what the key holds now: claims it
   * again in a new, read-only transaction. Should the key be free again (the other answer was
   * purged in between), the client is told to retry.
   */
  private void answerFromStore(ClaimResult.Acquired first, HttpServletResponse response)
      throws IOException {
    ClaimResult claim;
    try {
      TransactionStatus tx = transactions.getTransaction(newTransaction());
      try {
        claim =
            engine.claim(
                DataSourceUtils.getConnection(dataSource), first.scope(), first.fingerprint());
      } finally {
        rollbackQuietly(tx);
      }
    } catch (RuntimeException e) {
      metrics.requestFinished(Outcome.ROLLED_BACK);
      warnFailed("Could not read an idempotency key after losing it to another request", e);
      unavailable(response);
      return;
    }
    answerAfterHandler(
        claim instanceof ClaimResult.Acquired
            ? new ClaimResult.InUse(first.scope(), engine.retryAfter())
            : claim,
        response);
  }

  /**
   * Answers without storing, after the handler ran and its transaction was rolled back: whatever
   * the handler set on the response (status, headers) is cleared first. The buffered body never
   * reached the response.
   */
  private void answerAfterHandler(ClaimResult claim, HttpServletResponse response)
      throws IOException {
    response.reset();
    answerWithoutExecuting(claim, response);
  }

  private static DefaultTransactionDefinition newTransaction() {
    DefaultTransactionDefinition definition =
        new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    definition.setName("once-idempotent-request");
    return definition;
  }

  /**
   * Logs a failure that is answered 503: a transient one throttled and without a stack trace (its
   * SQLSTATE says what happened), anything else at once with its stack trace (it is unexpected).
   */
  private static void warnFailed(String what, RuntimeException e) {
    if (TransientFailures.isTransient(e)) {
      String condition = TransientFailures.condition(e);
      transientLog.warn(what + ": " + condition, () -> what + " (" + condition + "); answered 503");
    } else {
      log.warn(what, e);
    }
  }

  private void answerWithoutExecuting(ClaimResult claim, HttpServletResponse response)
      throws IOException {
    if (claim instanceof ClaimResult.Replay replay) {
      metrics.requestFinished(Outcome.REPLAYED);
      replay(replay.response(), response);
    } else if (claim instanceof ClaimResult.Mismatch) {
      metrics.requestFinished(Outcome.KEY_REUSED);
      problems.write(
          response,
          OnceProblem.KEY_REUSED,
          "This Idempotency-Key was already used for a different request.");
    } else if (claim instanceof ClaimResult.InUse inUse) {
      metrics.requestFinished(Outcome.IN_USE);
      problems.write(
          response,
          OnceProblem.KEY_IN_USE,
          "A request with this Idempotency-Key is still being processed; retry later.",
          inUse.retryAfter().toSeconds());
    } else {
      throw new IllegalStateException("an acquired claim executes the request");
    }
  }

  private static void replay(StoredResponse stored, HttpServletResponse response)
      throws IOException {
    response.setStatus(stored.status());
    if (stored.contentType() != null) {
      response.setContentType(stored.contentType());
    }
    if (stored.location() != null) {
      response.setHeader("Location", stored.location());
    }
    response.setHeader(REPLAYED_HEADER, "true");
    byte[] body = stored.body();
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private void unavailable(HttpServletResponse response) throws IOException {
    metrics.requestFinished(Outcome.UNAVAILABLE);
    problems.write(
        response,
        OnceProblem.SERVICE_UNAVAILABLE,
        "The request could not be completed; retry with the same Idempotency-Key, which is"
            + " applied at most once.",
        1);
  }

  /**
   * Stores the answer and commits in one round trip, as the last step before Spring's commit: it is
   * the last synchronization to run {@code beforeCommit} (lowest precedence, registered after the
   * handler's), so every other {@code beforeCommit}, which may still write, runs inside the
   * transaction. Spring's own commit then finds the transaction over and has nothing to send; its
   * {@code beforeCompletion} and {@code afterCommit} callbacks run as usual. A failure (the key
   * taken, the commit refused) is thrown out of {@code beforeCommit}, so Spring rolls back.
   */
  private record AnswerWithCommit(
      IdempotencyEngine engine,
      Connection connection,
      ClaimResult.Acquired claim,
      StoredResponse answer)
      implements TransactionSynchronization {
    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void beforeCommit(boolean readOnly) {
      engine.completeAndCommit(connection, claim, answer);
    }
  }

  private void rollbackQuietly(TransactionStatus tx) {
    try {
      transactions.rollback(tx);
    } catch (RuntimeException e) {
      // The connection may be gone (killed backend); the database rolls back on its own then.
      log.debug("Rollback of an idempotent request failed", e);
    }
  }
}
