package dev.once.shop.web;

import dev.once.postgres.TransientFailures;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Replaces Boot's error page, which the container forwards to for failures outside Spring MVC (e.g.
 * a filter that throws), so that those too are {@code application/problem+json} with a generic
 * detail and no stack trace.
 */
@Hidden // the container's error path, not part of the API
@RestController
public class ProblemErrorController implements ErrorController {
  private static final Logger log = LoggerFactory.getLogger(ProblemErrorController.class);

  private final ProblemResponses problems;
  private final DatabaseUnavailable databaseUnavailable;

  public ProblemErrorController(
      ProblemResponses problems, DatabaseUnavailable databaseUnavailable) {
    this.problems = problems;
    this.databaseUnavailable = databaseUnavailable;
  }

  @RequestMapping("${server.error.path:${error.path:/error}}")
  ResponseEntity<Object> error(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    Throwable failure =
        request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable t ? t : null;
    // A filter that asked for a parameter of an undecodable query string: the client's fault.
    if (causedBy(failure, InvalidParameterException.class)) {
      log.debug("Request refused: invalid-parameter ({})", failure.toString());
      return problems.answer(
          ShopProblem.INVALID_PARAMETER, ProblemExceptionHandler.UNDECODABLE_QUERY);
    }
    if (failure != null && DisconnectedClientHelper.isClientDisconnectedException(failure)) {
      log.debug("Client went away: {}", failure.toString());
      return problems.answer(ShopProblem.BAD_REQUEST, "The request could not be read.");
    }
    if (failure != null && TransientFailures.isTransient(failure)) {
      // A filter's database call failed for a reason a retry cures.
      return databaseUnavailable.answer(failure);
    }
    // Asked for directly rather than forwarded to: there is no error page to show.
    int forwarded = code instanceof Integer i ? i : 404;
    int status = forwarded >= 400 && forwarded <= 599 ? forwarded : 500;
    if (status >= 500 && failure != null) {
      log.error("Unhandled failure outside Spring MVC", failure);
    }
    return problems.answer(status, new HttpHeaders());
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
