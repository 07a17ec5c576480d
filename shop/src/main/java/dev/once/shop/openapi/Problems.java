package dev.once.shop.openapi;

import dev.once.shop.problems.ShopProblem;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The problems a handler answers with because of what it does (an unknown id, a business rule),
 * documented in the OpenAPI description as {@code application/problem+json} answers, one per
 * status, and listed by slug in the operation's description. The problems that every operation of
 * its kind can give (authentication, the body's format, the {@code Idempotency-Key}) are added by
 * {@link OperationProblems} and need not be listed.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Problems {
  /** The handler's own problems. */
  ShopProblem[] value();
}
