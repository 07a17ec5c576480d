package dev.once.shop.openapi;

import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Documents a {@code 201 Created} answer whose body is the created resource and whose {@code
 * Location} header is its address, a path under {@code /v1} that a GET reads.
 */
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ApiResponse(
    responseCode = "201",
    description = "Created: the body is the new resource, `Location` its address.",
    headers =
        @Header(
            name = "Location",
            required = true,
            description = "The new resource's path, to read it with GET.",
            schema = @Schema(type = "string", format = "uri-reference")))
public @interface CreatedAt {}
