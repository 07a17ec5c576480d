package dev.once.spring;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.net.URI;
import java.net.URISyntaxException;

/** A non-blank string that, followed by a slug, is a valid URI reference. */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = UriPrefix.Check.class)
@interface UriPrefix {
  String message() default "must be the start of a URI, such as https://example.com/problems/";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<UriPrefix, String> {
    @Override
    public boolean isValid(String base, ConstraintValidatorContext context) {
      if (base == null || base.isBlank()) {
        return false;
      }
      try {
        new URI(base + "slug");
        return true;
      } catch (URISyntaxException e) {
        return false;
      }
    }
  }
}
