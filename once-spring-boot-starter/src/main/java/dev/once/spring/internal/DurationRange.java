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
import java.time.Duration;

/**
 * A duration from {@link #minMillis()} to {@link #maxMillis()}, both included; set unless {@link
 * #optional()}. The bounds are compile-time constants, most of them once-core's own.
 */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = DurationRange.Check.class)
public @interface DurationRange {
  long minMillis();

  /** {@link Long#MAX_VALUE}: no upper bound. */
  long maxMillis() default Long.MAX_VALUE;

  /** Whether unset (null) is allowed. */
  boolean optional() default false;

  String message() default "out of range";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<DurationRange, Duration> {
    private DurationRange range;

    @Override
    public void initialize(DurationRange range) {
      this.range = range;
    }

    @Override
    public boolean isValid(Duration value, ConstraintValidatorContext context) {
      if (value == null && range.optional()) {
        return true;
      }
      if (value != null
          && value.compareTo(Duration.ofMillis(range.minMillis())) >= 0
          && value.compareTo(Duration.ofMillis(range.maxMillis())) <= 0) {
        return true;
      }
      return Bounds.reject(
          context,
          range.maxMillis() == Long.MAX_VALUE
              ? "must be at least " + Bounds.duration(range.minMillis())
              : "must be "
                  + Bounds.duration(range.minMillis())
                  + " to "
                  + Bounds.duration(range.maxMillis()));
    }
  }
}
