package dev.once.shop.openapi;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Documents a {@code 201 Created} answer whose body is the created resource, for a resource that
 * has no address of its own (a deposit, a refund, a client), so the answer has no {@code Location}.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ApiResponse(responseCode = "201", description = "Created: the body is the new resource.")
public @interface Created {}
