package dev.once.spring.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a Spring MVC handler method, or every handler method of a controller class, as idempotent:
 * its requests with one of the methods of {@code once.idempotency.http.methods} (default {@code
 * POST}) go through Once's {@code Idempotency-Key} contract ({@link IdempotencyFilter}).
 *
 * <p>A request is idempotent if its handler method or the handler's class carries this annotation,
 * or if its path matches {@code once.idempotency.http.paths} (empty by default). The annotation on
 * the method wins over the one on the class, and either wins over {@code paths}: a method marked
 * {@code required = false} under a path pattern accepts requests without a key. A request that no
 * handler takes (an unknown path, or one Spring MVC refuses before choosing a handler, such as an
 * unsupported method or media type) is idempotent only if a path pattern matches it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {
  /**
   * Whether a request must send an {@code Idempotency-Key}. {@code true} (the default): a request
   * without one is answered 400 {@code idempotency-key-missing}. {@code false}: a request without
   * the header runs as if the endpoint were not idempotent (no key, no stored answer, no checks of
   * the filter); a request with the header is handled idempotently, as on a required endpoint.
   */
  boolean required() default true;

  /**
   * How long a key used on this endpoint keeps its answer, instead of {@code
   * once.idempotency.retention}: a duration in Spring Boot's notation, simple ({@code "90s"},
   * {@code "1h"}, {@code "7d"}) or ISO-8601 ({@code "PT1H"}), at least one second. Empty (the
   * default): the configured retention. A value that is not a duration, or shorter than a second,
   * fails the application's start with a message that names the handler. A key stored under this
   * endpoint is kept this long after its answer was stored, whatever endpoint a retry reaches.
   */
  String retention() default "";
}
