package dev.once.spring.internal;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A whole number from {@link #min()} to {@link #max()}, both included; null (unset) passes, for the
 * optional fields of a retry policy. The bounds are compile-time constants, most of them
 * once-core's own.
 */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = IntRange.Check.class)
public @interface IntRange {
  long min();

  long max();

  /** Said after the range, such as "(no cap)" for a 0 that means none. */
  String note() default "";

  String message() default "out of range";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<IntRange, Number> {
    private IntRange range;

    @Override
    public void initialize(IntRange range) {
      this.range = range;
    }

    @Override
    public boolean isValid(Number value, ConstraintValidatorContext context) {
      if (value == null || (value.longValue() >= range.min() && value.longValue() <= range.max())) {
        return true;
      }
      return Bounds.reject(
          context,
          "must be "
              + range.min()
              + " to "
              + range.max()
              + (range.note().isEmpty() ? "" : " " + range.note()));
    }
  }
}
