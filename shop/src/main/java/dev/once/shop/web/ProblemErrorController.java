package dev.once.shop.web;

import dev.once.shop.problems.ProblemResponses;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Boot's error page, which the container forwards to for failures outside Spring MVC (e.g.
 * a filter that throws), so that those too are {@code application/problem+json} with a generic
 * detail and no stack trace: a failure gets the answer {@link ProblemExceptionHandler} gives a
 * handler's, a bare status the generic problem for it.
 */
@Hidden // the container's error path, not part of the API
@RestController
public class ProblemErrorController implements ErrorController {
  private final ProblemResponses problems;
  private final ProblemExceptionHandler exceptions;

  public ProblemErrorController(ProblemResponses problems, ProblemExceptionHandler exceptions) {
    this.problems = problems;
    this.exceptions = exceptions;
  }

  @RequestMapping("${server.error.path:${error.path:/error}}")
  ResponseEntity<Object> error(HttpServletRequest request) {
    if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable failure) {
      return exceptions.outsideSpringMvc(failure);
    }
    // Asked for directly rather than forwarded to: there is no error page to show.
    int forwarded =
        request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer i ? i : 404;
    return problems.answer(
        forwarded >= 400 && forwarded <= 599 ? forwarded : 500, new HttpHeaders());
  }
}
