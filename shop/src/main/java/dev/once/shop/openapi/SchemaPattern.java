package dev.once.shop.openapi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Documents the JSON Schema {@code pattern} of a constraint annotation whose validator checks more
 * than a pattern can say (the currency code, a code the JDK knows), so that the OpenAPI description
 * shows its shape: put it on the constraint annotation's type. A constraint composed with Bean
 * Validation's {@code @Pattern} needs none; its pattern is documented as it is.
 */
@Documented
@Target(ElementType.ANNOTATION_TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface SchemaPattern {
  /** The anchored pattern, e.g. {@code ^[A-Z]{3}$}. */
  String value();
}
