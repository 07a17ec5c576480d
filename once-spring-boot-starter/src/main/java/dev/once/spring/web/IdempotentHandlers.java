package dev.once.spring.web;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Finds the {@link Idempotent} annotation of the handler a request goes to. Must not read the
 * request's body or parameters from it, nor leave attributes on it.
 */
@FunctionalInterface
public interface IdempotentHandlers {
  /** For applications without Spring MVC: no handler is annotated. */
  IdempotentHandlers NONE = request -> null;

  /** The annotation on the request's handler method, else on its class; null if neither has one. */
  Idempotent find(HttpServletRequest request);
}
