package dev.once.shop.clients;

import dev.once.failures.TransientFailures;
import dev.once.shop.problems.DatabaseUnavailable;
import dev.once.shop.problems.ProblemResponses;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.web.IdempotencyClientResolver;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates every {@code /v1} request by its API key ({@code Authorization: Bearer <key>})
 * before Once's filter runs, and hands the client id to Once and to the controllers through the
 * request attribute {@link IdempotencyClientResolver#CLIENT_ID_ATTRIBUTE}. A missing, unknown or
 * disabled key is answered 401 before any idempotency key is looked up, as the contract requires;
 * when the lookups reserved for unfamiliar keys are all busy (see {@link ApiKeyAuthenticator}), or
 * the database fails, 503 with {@code Retry-After}. The key is never logged. Thread-safe.
 */
final class ApiKeyAuthenticationFilter extends OncePerRequestFilter {
  private static final String RETRY =
      "The service is briefly unable to authenticate requests; retry the request.";

  private final ApiKeyAuthenticator authenticator;
  private final ProblemResponses problems;
  private final DatabaseUnavailable databaseUnavailable;

  ApiKeyAuthenticationFilter(
      ApiKeyAuthenticator authenticator,
      ProblemResponses problems,
      DatabaseUnavailable databaseUnavailable) {
    this.authenticator = authenticator;
    this.problems = problems;
    this.databaseUnavailable = databaseUnavailable;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<String> key = BearerTokens.from(request);
    if (key.isEmpty()) {
      unauthorized(response, "Bearer realm=\"shop\"");
      return;
    }
    ApiKeyAuthenticator.Outcome outcome;
    try {
      outcome = authenticator.authenticate(key.get());
    } catch (RuntimeException e) {
      // Any failure of the lookup's database (a Spring DataAccessException, or whatever exception
      // carries a transient failure, see TransientFailures) is a 503; anything else is a bug and
      // goes to the container's error path. Logged by SQLSTATE, never by message: the message
      // could quote the statement next to a key.
      if (!(e instanceof DataAccessException) && !TransientFailures.isTransient(e)) {
        throw e;
      }
      databaseUnavailable.write(response, e, RETRY);
      return;
    }
    if (outcome instanceof ApiKeyAuthenticator.Busy) {
      problems.write(response, ShopProblem.SERVICE_UNAVAILABLE, RETRY);
      return;
    }
    if (!(outcome instanceof ApiKeyAuthenticator.Authenticated client)) {
      unauthorized(response, "Bearer realm=\"shop\", error=\"invalid_token\"");
      return;
    }
    request.setAttribute(IdempotencyClientResolver.CLIENT_ID_ATTRIBUTE, client.clientId());
    chain.doFilter(request, response);
  }

  private void unauthorized(HttpServletResponse response, String challenge) throws IOException {
    response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge);
    problems.write(
        response,
        ShopProblem.UNAUTHORIZED,
        "A valid API key is required: send 'Authorization: Bearer <api key>'.");
  }
}
