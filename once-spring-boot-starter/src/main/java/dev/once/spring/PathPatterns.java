package dev.once.spring;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.once.spring.internal.Bounds;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import java.util.List;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/** A list (empty for none) of patterns Spring's {@code PathPatternParser} accepts. */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = PathPatterns.Check.class)
@interface PathPatterns {
  String message() default "must hold Spring path patterns, such as /v1/orders/**";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<PathPatterns, List<String>> {
    @Override
    public boolean isValid(List<String> paths, ConstraintValidatorContext context) {
      if (paths == null) {
        return false;
      }
      for (String path : paths) {
        if (!isPathPattern(path)) {
          return Bounds.reject(
              context,
              "must hold Spring path patterns, such as /v1/orders/**: '" + path + "' is not one");
        }
      }
      return true;
    }

    private static boolean isPathPattern(String path) {
      if (path == null || path.isBlank()) {
        return false;
      }
      try {
        PathPatternParser.defaultInstance.parse(path.trim());
        return true;
      } catch (PatternParseException e) {
        return false;
      }
    }
  }
}
