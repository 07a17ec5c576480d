package dev.once.spring.web;

import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.HandlerAnswer;
import dev.once.idempotency.IdempotencyEngine;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.IdempotentOutcome;
import dev.once.idempotency.IdempotentRequest;
import dev.once.idempotency.StoredResponse;
import dev.once.spring.metrics.IdempotencyMetrics;
import dev.once.spring.metrics.IdempotencyMetrics.Outcome;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Runs one idempotent request through once-core's keyed request ({@link IdempotencyEngine#execute}:
 * claim, handler, stored answer) in Spring transactions, and answers it over HTTP. The loop's rules
 * (docs/idempotency.md) hold here as everywhere: the key claim, every write of the handler that
 * joins the Spring transaction, and the stored answer commit together or not at all; a storable 4xx
 * keeps none of the handler's writes (its transaction synchronizations complete as rolled back) and
 * is stored in a second transaction; everything else that is not a stored success rolls back and
 * leaves the key free.
 *
 * <p>This class adds what is HTTP's: the handler's answer is buffered ({@link BufferedResponse})
 * until the loop has ended, so a client never sees an answer that is not durable; an answer the
 * handler gave through {@code sendError} (its body is written by the container later, so it cannot
 * be stored faithfully) or a 4xx the handler did not produce (an unknown path, a request Spring MVC
 * refused before calling the handler; see {@link HandlerAnswers}) is not stored; and each outcome
 * becomes its answer:
 *
 * <ul>
 *   <li>executed or refused (stored), not stored: the handler's answer as it gave it;
 *   <li>replayed: the stored answer, with {@value #REPLAYED_HEADER}{@code : true};
 *   <li>key reused: 422 {@code idempotency-key-reused}; key in use: 409 {@code
 *       idempotency-key-in-use} with {@code Retry-After};
 *   <li>a success larger than {@code maxAnswerBytes}: 422 {@code answer-too-large} (nothing of it
 *       was applied); a rollback-only transaction: 500 {@code internal-error};
 *   <li>the database failed: 503 {@code service-unavailable} with {@code Retry-After: 1}.
 * </ul>
 */
final class KeyedHttpRequests {
  /** Response header set on every replayed answer. */
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";

  private final IdempotencyEngine engine;
  private final SpringIdempotentTransactions transactions;
  private final ProblemResponses problems;
  private final IdempotencyMetrics metrics;
  private final int maxAnswerBytes;

  /**
   * @param maxAnswerBytes largest answer body stored with a key ({@code
   *     once.idempotency.limits.max-answer-size}): a larger success is rolled back and refused with
   *     422 {@code answer-too-large}, a larger refusal is sent but not stored
   */
  public KeyedHttpRequests(
      IdempotencyEngine engine,
      PlatformTransactionManager transactions,
      DataSource dataSource,
      String problemTypeBase,
      IdempotencyMetrics metrics,
      int maxAnswerBytes) {
    this.engine = engine;
    this.maxAnswerBytes = maxAnswerBytes;
    this.transactions = new SpringIdempotentTransactions(transactions, dataSource);
    this.problems = new ProblemResponses(problemTypeBase);
    this.metrics = metrics;
  }

  /**
   * {@link #execute(IdempotencyScope, Fingerprint, Duration, HttpServletRequest,
   * HttpServletResponse, FilterChain, Runnable, Runnable)} with the engine's retention.
   */
  void execute(
      IdempotencyScope scope,
      Fingerprint fingerprint,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain,
      Runnable notNew)
      throws IOException, ServletException {
    execute(scope, fingerprint, null, request, response, chain, notNew, () -> {});
  }

  /**
   * Runs the request and answers it.
   *
   * @param retention how long the key's answer is kept (the endpoint's {@code
   *     Idempotent#retention}), or {@code null} for the engine's
   * @param notNew run when the request turns out to start no new key (a replay, a mismatch, a key
   *     in use, or a claim the database could not make), before any of its answer is written: a
   *     client that sends its next request as soon as it has this answer finds the key's token
   *     already back in its bucket
   * @param ended run once every transaction of the request is over, before any of its answer is
   *     written (not run if the request fails with an exception): the container may send an answer
   *     as soon as its last byte is written, so a client that sends its next request at once must
   *     find this one no longer in flight
   */
  void execute(
      IdempotencyScope scope,
      Fingerprint fingerprint,
      Duration retention,
      HttpServletRequest request,
      HttpServletResponse response,
      FilterChain chain,
      Runnable notNew,
      Runnable ended)
      throws IOException, ServletException {
    BufferedResponse buffered = new BufferedResponse(response);
    IdempotentOutcome outcome;
    try {
      outcome =
          engine.execute(
              transactions,
              new IdempotentRequest(scope, fingerprint, retention, maxAnswerBytes),
              connection -> runChain(request, buffered, chain));
    } catch (ChainFailure e) {
      metrics.requestFinished(Outcome.ROLLED_BACK);
      throw e.rethrow();
    } catch (Throwable e) {
      // Throwable: a filter may sneak a checked exception through; the loop rolled back.
      metrics.requestFinished(Outcome.ROLLED_BACK);
      throw e;
    }
    if (!outcome.ranHandler()) {
      notNew.run();
    }
    ended.run();
    metrics.requestFinished(metricOf(outcome));
    answer(outcome, buffered, response);
  }

  /** The handler: the rest of the filter chain, its answer held in {@code buffered}. */
  private static HandlerAnswer runChain(
      HttpServletRequest request, BufferedResponse buffered, FilterChain chain) {
    try {
      chain.doFilter(request, buffered);
    } catch (IOException | ServletException e) {
      throw new ChainFailure(e);
    }
    int status = buffered.getStatus();
    HandlerAnswer answer =
        HandlerAnswer.of(
            status,
            buffered.getContentType(),
            buffered.getHeader("Location"),
            buffered.getContentAsByteArray());
    // A refusal is stored only if the handler gave it: an unknown path or a request Spring MVC
    // could not bind never reached it, and a corrected retry with the same key must execute.
    // Successes are always the handler's: nothing before a handler answers a request with one.
    return buffered.handedToContainer()
            || (status >= 400 && !HandlerAnswers.producedByHandler(request))
        ? answer.notStorable()
        : answer;
  }

  /** The outcome as {@link IdempotencyMetrics} counts it. */
  static Outcome metricOf(IdempotentOutcome outcome) {
    if (outcome instanceof IdempotentOutcome.Executed
        || outcome instanceof IdempotentOutcome.Refused) {
      return Outcome.EXECUTED;
    }
    if (outcome instanceof IdempotentOutcome.Replayed) {
      return Outcome.REPLAYED;
    }
    if (outcome instanceof IdempotentOutcome.KeyReused) {
      return Outcome.KEY_REUSED;
    }
    if (outcome instanceof IdempotentOutcome.InUse) {
      return Outcome.IN_USE;
    }
    if (outcome instanceof IdempotentOutcome.Unavailable) {
      return Outcome.UNAVAILABLE;
    }
    // NotStored, TooLarge, RollbackOnly: the handler ran, nothing of it was kept.
    return Outcome.ROLLED_BACK;
  }

  private void answer(
      IdempotentOutcome outcome, BufferedResponse buffered, HttpServletResponse response)
      throws IOException {
    if (outcome instanceof IdempotentOutcome.Executed
        || outcome instanceof IdempotentOutcome.Refused
        || outcome instanceof IdempotentOutcome.NotStored) {
      buffered.copyBodyToResponse();
    } else if (outcome instanceof IdempotentOutcome.TooLarge tooLarge) {
      problems.write(
          response,
          OnceProblem.ANSWER_TOO_LARGE,
          "The answer to this request is larger than the "
              + tooLarge.maxAnswerBytes()
              + " bytes this service stores for an Idempotency-Key; nothing of it was applied.");
    } else if (outcome instanceof IdempotentOutcome.RollbackOnly) {
      problems.write(
          response,
          OnceProblem.INTERNAL_ERROR,
          "The request could not be completed and was rolled back; retry with the same"
              + " Idempotency-Key.");
    } else if (outcome instanceof IdempotentOutcome.Unavailable) {
      problems.write(
          response,
          OnceProblem.SERVICE_UNAVAILABLE,
          "The request could not be completed; retry with the same Idempotency-Key, which is"
              + " applied at most once.",
          1);
    } else {
      if (outcome.ranHandler()) {
        // The handler ran and was rolled back: whatever it set on the response (status, headers)
        // goes; its buffered body never reached the response.
        response.reset();
      }
      answerFromKey(outcome, response);
    }
  }

  /** A replay, a mismatch or a key in use: what the key holds, the same with or without a run. */
  private void answerFromKey(IdempotentOutcome outcome, HttpServletResponse response)
      throws IOException {
    if (outcome instanceof IdempotentOutcome.Replayed replayed) {
      replay(replayed.answer(), response);
    } else if (outcome instanceof IdempotentOutcome.KeyReused) {
      problems.write(
          response,
          OnceProblem.KEY_REUSED,
          "This Idempotency-Key was already used for a different request.");
    } else if (outcome instanceof IdempotentOutcome.InUse inUse) {
      problems.write(
          response,
          OnceProblem.KEY_IN_USE,
          "A request with this Idempotency-Key is still being processed; retry later.",
          inUse.retryAfter().toSeconds());
    } else {
      throw new IllegalStateException("unexpected outcome " + outcome);
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

  /** The filter chain's checked exception, carried through the loop, which rolled back. */
  private static final class ChainFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ChainFailure(Exception cause) {
      super(cause);
    }

    /** The chain's exception, to be thrown as it was. */
    IOException rethrow() throws ServletException {
      if (getCause() instanceof ServletException servlet) {
        throw servlet;
      }
      return (IOException) getCause();
    }
  }
}
