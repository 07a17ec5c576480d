package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.problems.ProblemResponses;
import dev.once.spring.OnceProperties;
import jakarta.servlet.RequestDispatcher;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.mock.web.MockHttpServletRequest;

/** Failures outside Spring MVC that the container forwards to the error page. */
class ProblemErrorControllerTest {
  private final ProblemResponses problems = new ProblemResponses(OnceProperties.defaults());
  private final ProblemErrorController controller =
      new ProblemErrorController(
          problems,
          new ProblemExceptionHandler(
              problems, new DatabaseUnavailable(problems, Clock.systemUTC())));

  /** A filter that found no free connection: retry later, not an internal error. */
  @Test
  void aTransientDatabaseFailureInAFilterIsA503WithRetryAfter() {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
    request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
    request.setAttribute(
        RequestDispatcher.ERROR_EXCEPTION,
        new CannotGetJdbcConnectionException(
            "no connection", new SQLTransientConnectionException("pool timed out")));

    ResponseEntity<Object> answer = controller.error(request);

    assertThat(answer.getStatusCode().value()).isEqualTo(503);
    assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
  }

  @Test
  void anyOtherFailureStaysAnInternalError() {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
    request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
    request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("bug"));

    assertThat(controller.error(request).getStatusCode().value()).isEqualTo(500);
  }

  /** Tomcat's filter chain passes a VirtualMachineError on unwrapped. */
  @Test
  void anErrorIsAnInternalErrorToo() {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", "/error");
    request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
    request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new StackOverflowError());

    assertThat(controller.error(request).getStatusCode().value()).isEqualTo(500);
  }
}
