package dev.once.shop.clients;

import dev.once.shop.problems.ProblemResponses;
import dev.once.shop.problems.ShopProblem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Lets a {@code /admin} request through only with {@code Authorization: Bearer <admin token>};
 * anything else is answered 401 without saying whether the header was missing or wrong.
 * Thread-safe.
 */
final class AdminAuthenticationFilter extends OncePerRequestFilter {
  private final AdminToken adminToken;
  private final ProblemResponses problems;

  AdminAuthenticationFilter(AdminToken adminToken, ProblemResponses problems) {
    this.adminToken = adminToken;
    this.problems = problems;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<String> token = BearerTokens.from(request);
    if (token.isEmpty() || !adminToken.matches(token.get())) {
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"shop-admin\"");
      problems.write(
          response,
          ShopProblem.UNAUTHORIZED,
          "A valid admin token is required: send 'Authorization: Bearer <admin token>'.");
      return;
    }
    chain.doFilter(request, response);
  }
}
