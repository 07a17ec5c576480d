package dev.once.spring.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.util.Set;
import org.springframework.util.ClassUtils;
import org.springframework.web.method.HandlerMethod;

/**
 * Tells whether an answer was produced by the application's handler, or by Spring MVC (or anything
 * else) before or without one: only the handler's own refusals are stored under a key.
 *
 * <p>An answer is the handler's when Spring MVC dispatched the request to an application handler,
 * that is a controller method or a router function (it records the handler it matched as the
 * request attribute {@code HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE}), and, if the answer was
 * rendered from an exception (which Spring MVC records as {@code
 * DispatcherServlet.EXCEPTION_ATTRIBUTE}), that exception was raised inside the handler method: its
 * stack trace passes through that method. So:
 *
 * <ul>
 *   <li>no application handler matched: an unmapped path, which Spring MVC hands to its static
 *       resource handler and answers 404 (or raises {@code NoHandlerFoundException}); a wrong
 *       method or media type; a servlet other than Spring MVC's: not the handler's;
 *   <li>a controller method matched but Spring MVC itself refused to prepare its call (a missing
 *       parameter, a path variable of the wrong type, an unreadable body: one of Spring's own
 *       exceptions, raised outside the method): not the handler's, the method never ran;
 *   <li>the application's own checks of the request refused it before the method ran: an exception
 *       of the application's (from its argument resolver, say), or a failed Bean Validation of the
 *       constraints the application declared ({@code MethodArgumentNotValidException}, {@code
 *       HandlerMethodValidationException}): the handler's, since the same request always gets the
 *       same refusal;
 *   <li>the handler threw, directly or from anything it called, and an exception handler ({@code
 *       ExceptionHandler}, {@code ControllerAdvice}, Spring's problem details) turned that into the
 *       answer: the handler's;
 *   <li>the handler returned its answer: the handler's.
 * </ul>
 *
 * A router function gets the raw request and reads it itself, so whatever it raises is its own. An
 * exception without a stack trace (made so on purpose by the application; Spring's own always have
 * one) is taken to be the handler's. Handlers of other kinds (Spring MVC's legacy {@code
 * Controller} and {@code HttpRequestHandler} beans) are not told apart from Spring's own resource
 * handlers and count as not the handler's, so their refusals are not stored. Spring MVC's types are
 * named, not referred to, so the starter does not need Spring MVC on the class path; without it no
 * refusal is ever the handler's. Stateless.
 */
final class HandlerAnswers {
  /** The value of {@code HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE}. */
  static final String MATCHED_HANDLER =
      "org.springframework.web.servlet.HandlerMapping.bestMatchingHandler";

  /** The value of {@code DispatcherServlet.EXCEPTION_ATTRIBUTE}. */
  static final String RESOLVED_EXCEPTION =
      "org.springframework.web.servlet.DispatcherServlet.EXCEPTION";

  /** Spring's exceptions for failed Bean Validation: the application's declared rules. */
  static final Set<String> VALIDATION_FAILURES =
      Set.of(
          "org.springframework.web.bind.MethodArgumentNotValidException",
          "org.springframework.web.method.annotation.HandlerMethodValidationException");

  /** What a router function's handler implements. */
  static final String HANDLER_FUNCTION = "org.springframework.web.servlet.function.HandlerFunction";

  private HandlerAnswers() {}

  /** Whether the answer the request got was produced by its handler; call after the chain ran. */
  static boolean producedByHandler(HttpServletRequest request) {
    Object handler = request.getAttribute(MATCHED_HANDLER);
    if (handler instanceof HandlerMethod method) {
      Throwable raised = raised(request);
      // No exception: the method returned the answer.
      return raised == null || raisedInside(raised, method) || !isSpringsOwnRefusal(raised);
    }
    return handler != null && isHandlerFunction(handler);
  }

  private static Throwable raised(HttpServletRequest request) {
    Object raised = request.getAttribute(RESOLVED_EXCEPTION);
    if (raised == null) {
      // An exception resolved into a view instead of a body is exposed as the servlet error.
      raised = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
    }
    return raised instanceof Throwable exception ? exception : null;
  }

  private static boolean isSpringsOwnRefusal(Throwable raised) {
    String type = raised.getClass().getName();
    return type.startsWith("org.springframework.") && !VALIDATION_FAILURES.contains(type);
  }

  private static boolean isHandlerFunction(Object handler) {
    for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(handler.getClass())) {
      if (type.getName().equals(HANDLER_FUNCTION)) {
        return true;
      }
    }
    return false;
  }

  private static boolean raisedInside(Throwable exception, HandlerMethod handler) {
    StackTraceElement[] frames = exception.getStackTrace();
    if (frames.length == 0) {
      return true;
    }
    // The frame of the method Spring calls (a bridge method, if it is one, has a frame too); a
    // proxy's frames come before the target's, which is the method's declaring class.
    Method method = handler.getMethod();
    String declaringClass = method.getDeclaringClass().getName();
    for (StackTraceElement frame : frames) {
      if (frame.getMethodName().equals(method.getName())
          && frame.getClassName().equals(declaringClass)) {
        return true;
      }
    }
    return false;
  }
}
