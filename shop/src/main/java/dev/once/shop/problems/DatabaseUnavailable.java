package dev.once.shop.problems;

import dev.once.failures.TransientFailures;
import dev.once.log.ThrottledLog;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * The shop's answer when the database cannot serve a request for a while (no free connection in the
 * pool, a cancelled statement, a restarting server): 503 {@code service-unavailable} with {@code
 * Retry-After}, and a WARN at most every {@link #LOG_INTERVAL} per condition, through a {@link
 * ThrottledLog}, without a stack trace: the condition is named by its SQLSTATE (or, for a pool that
 * found no connection in time and reports none, by saying so), which tells an operator more than a
 * stack trace repeated for every request. Thread-safe.
 */
@Component
public class DatabaseUnavailable {
  /** Least time between two warnings about one condition. */
  public static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

  /** The detail of a 503 from a controller. */
  static final String DETAIL =
      "The service is briefly unable to complete the request and nothing was changed; retry it.";

  private final ProblemResponses problems;
  private final ThrottledLog log;

  public DatabaseUnavailable(ProblemResponses problems, Clock clock) {
    this.problems = problems;
    this.log =
        new ThrottledLog(LoggerFactory.getLogger(DatabaseUnavailable.class), LOG_INTERVAL, clock);
  }

  /** Logs {@code cause} (throttled) and returns the 503 for a controller. */
  public ResponseEntity<Object> answer(Throwable cause) {
    logged(cause);
    return problems.answer(ShopProblem.SERVICE_UNAVAILABLE, DETAIL);
  }

  /** Logs {@code cause} (throttled) and writes the 503, for a filter that answers by itself. */
  public void write(HttpServletResponse response, Throwable cause, String detail)
      throws IOException {
    logged(cause);
    problems.write(response, ShopProblem.SERVICE_UNAVAILABLE, detail);
  }

  private void logged(Throwable cause) {
    String condition = TransientFailures.condition(cause);
    log.warn(
        condition,
        () ->
            "The database could not serve a request, answered 503 service-unavailable: "
                + condition);
  }
}
