package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;

/**
 * Names the authenticated client of a request, so that keys are scoped per client. It runs after
 * the application's authentication and before any key is looked up; a request without a client is
 * answered 401 and nothing is looked up.
 *
 * <p>The default implementation reads the request attribute {@link #CLIENT_ID_ATTRIBUTE}, then the
 * servlet {@link Principal}. Declare a bean of this type to replace it.
 */
@FunctionalInterface
public interface IdempotencyClientResolver {

  /** Request attribute an authentication filter may set to the client's stable id. */
  String CLIENT_ID_ATTRIBUTE = "dev.once.client-id";

  /** The authenticated client's stable id, or empty if the request is not authenticated. */
  Optional<String> clientId(HttpServletRequest request);

  /** The default: attribute {@link #CLIENT_ID_ATTRIBUTE}, else the principal's name. */
  static IdempotencyClientResolver standard() {
    return request -> {
      Object attribute = request.getAttribute(CLIENT_ID_ATTRIBUTE);
      if (attribute instanceof String id && !id.isEmpty()) {
        return Optional.of(id);
      }
      Principal principal = request.getUserPrincipal();
      return principal == null || principal.getName() == null || principal.getName().isEmpty()
          ? Optional.empty()
          : Optional.of(principal.getName());
    };
  }
}
