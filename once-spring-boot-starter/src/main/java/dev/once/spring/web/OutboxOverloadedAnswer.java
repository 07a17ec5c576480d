package dev.once.spring.web;

import dev.once.outbox.OutboxOverloadedException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers an {@link OutboxOverloadedException} that a Spring MVC handler let through with 503
 * {@code outbox-overloaded}, {@code application/problem+json}, and {@code Retry-After} (whole
 * seconds), whether or not the request is idempotent. Inside an idempotent request the 503 is never
 * stored: the transaction rolls back and the key stays free, so the client sends the same request
 * with the same key again after {@code Retry-After}.
 *
 * <p>It runs after Spring MVC's own resolvers ({@link Ordered#LOWEST_PRECEDENCE}): an application
 * that maps the exception itself ({@code @ExceptionHandler}) keeps its answer, and so does one with
 * a catch-all {@code @ExceptionHandler(Exception.class)}, which should then map this exception
 * first. Stateless apart from the problem type base; thread-safe.
 */
final class OutboxOverloadedAnswer implements HandlerExceptionResolver, Ordered {
  private static final Logger log = LoggerFactory.getLogger(OutboxOverloadedAnswer.class);

  /** The problem's detail: one fixed sentence, nothing internal. */
  static final String DETAIL =
      "The service has more work queued than it can do in time and took nothing of this request;"
          + " send it again after Retry-After.";

  private final ProblemResponses problems;

  /**
   * @param problemTypeBase the start of the problem's {@code type} ({@code
   *     once.idempotency.http.problem-type-base})
   */
  public OutboxOverloadedAnswer(String problemTypeBase) {
    this.problems = new ProblemResponses(problemTypeBase);
  }

  @Override
  public ModelAndView resolveException(
      HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
    OutboxOverloadedException overloaded = find(ex);
    if (overloaded == null || response.isCommitted()) {
      return null;
    }
    try {
      problems.write(
          response, OnceProblem.OUTBOX_OVERLOADED, DETAIL, overloaded.retryAfterSeconds());
    } catch (IOException e) {
      log.debug("Could not write the outbox-overloaded answer", e);
    }
    return new ModelAndView();
  }

  /** The exception or one of its causes, if it is load shedding's. */
  static OutboxOverloadedException find(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
      if (t instanceof OutboxOverloadedException overloaded) {
        return overloaded;
      }
    }
    return null;
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }
}
