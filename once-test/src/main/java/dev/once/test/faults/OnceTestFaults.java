package dev.once.test.faults;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The HTTP fault hooks, for a Spring servlet application under test: {@code @Import} it into the
 * test's application. Two servlet filters that act only on a request with the header {@value
 * #HEADER}, and pass every other request through untouched:
 *
 * <ul>
 *   <li>{@value #FAIL_AFTER_HANDLER}: ordered just inside Once's {@code IdempotencyFilter} (its
 *       order {@code once.idempotency.http.filter-order} plus one); runs the handler, then throws
 *       {@link InjectedFault}, as a handler failing after its writes would: Once rolls the whole
 *       request back and leaves the key free; the handler's answer is dropped, the client gets a
 *       500;
 *   <li>{@value #FAIL_AFTER_COMMIT}: ordered just outside Once's filter (its order minus one); lets
 *       the request run and Once commit, holds the answer in a buffer, then drops it and throws
 *       {@link InjectedFault}: the client gets a 500 instead of the answer, as when a connection
 *       breaks after the commit.
 * </ul>
 *
 * <p>Never import it into a production configuration: anyone who sends the header gets the fault.
 */
@Configuration(proxyBeanMethods = false)
public class OnceTestFaults {
  /** The request header that asks for a fault; its value names which. */
  public static final String HEADER = "Once-Test-Fault";

  /** {@value #HEADER} value: the handler ran, its writes are not committed, then a failure. */
  public static final String FAIL_AFTER_HANDLER = "fail-after-handler";

  /** {@value #HEADER} value: the request committed, then its answer is lost. */
  public static final String FAIL_AFTER_COMMIT = "fail-after-commit";

  /** The {@value #FAIL_AFTER_HANDLER} filter, just inside Once's. */
  @Bean
  FilterRegistrationBean<Filter> onceTestFailAfterHandler(
      @Value("${once.idempotency.http.filter-order:0}") int onceFilterOrder) {
    return registration(
        FAIL_AFTER_HANDLER, onceFilterOrder + 1, "after the handler, before the commit");
  }

  /** The {@value #FAIL_AFTER_COMMIT} filter, just outside Once's. */
  @Bean
  FilterRegistrationBean<Filter> onceTestFailAfterCommit(
      @Value("${once.idempotency.http.filter-order:0}") int onceFilterOrder) {
    return registration(
        FAIL_AFTER_COMMIT,
        onceFilterOrder - 1,
        "after the commit, before the answer reached the client");
  }

  /**
   * A filter that, on a request with {@code HEADER: fault}, lets the rest of the chain answer into
   * a buffer, drops the answer and throws: the client gets a 500, never the answer. The answer is
   * held back inside Once's filter too: an endpoint without Once writes straight to the client.
   */
  private static FilterRegistrationBean<Filter> registration(
      String fault, int order, String where) {
    Filter onHeader =
        (request, response, chain) -> {
          if (request instanceof HttpServletRequest http
              && response instanceof HttpServletResponse httpResponse
              && fault.equals(http.getHeader(HEADER))) {
            failAfter(http, httpResponse, chain, where);
          } else {
            chain.doFilter(request, response);
          }
        };
    FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(onHeader);
    registration.setName("onceTestFault-" + fault);
    registration.setOrder(order);
    return registration;
  }

  private static void failAfter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain, String where)
      throws IOException, ServletException {
    // Everything inside writes into the buffer; nothing of it is ever copied to the response.
    ContentCachingResponseWrapper buffer = new ContentCachingResponseWrapper(response);
    chain.doFilter(request, buffer);
    if (response.isCommitted()) {
      // sendError inside reaches the container at once: the answer could not be held back.
      throw new IllegalStateException(
          "once-test could not hold back the answer (the application committed it through"
              + " sendError); its fault hooks need an answer written into the response");
    }
    response.reset();
    throw new InjectedFault(where);
  }
}
