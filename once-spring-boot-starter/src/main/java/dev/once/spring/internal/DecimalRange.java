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
 * A number from {@link #min()} to {@link #max()}, both included (NaN never); null (unset) passes.
 * The bounds are compile-time constants of once-core.
 */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = DecimalRange.Check.class)
public @interface DecimalRange {
  double min();

  double max();

  String message() default "out of range";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<DecimalRange, Double> {
    private DecimalRange range;

    @Override
    public void initialize(DecimalRange range) {
      this.range = range;
    }

    @Override
    public boolean isValid(Double value, ConstraintValidatorContext context) {
      if (value == null || (value >= range.min() && value <= range.max())) {
        return true;
      }
      return Bounds.reject(context, "must be " + range.min() + " to " + range.max());
    }
  }
}
