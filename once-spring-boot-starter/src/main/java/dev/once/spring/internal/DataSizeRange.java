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
import org.springframework.util.unit.DataSize;

/** A size that is set and holds 1 byte up to what a Java array holds (2GB less a few bytes). */
@Target({FIELD, PARAMETER})
@Retention(RUNTIME)
@Constraint(validatedBy = DataSizeRange.Check.class)
public @interface DataSizeRange {
  /** The largest array the JVM allocates; a body is buffered in one. */
  long MAX_BYTES = Integer.MAX_VALUE - 8;

  String message() default "must be 1B to 2GB";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  final class Check implements ConstraintValidator<DataSizeRange, DataSize> {
    @Override
    public boolean isValid(DataSize value, ConstraintValidatorContext context) {
      return value != null && value.toBytes() >= 1 && value.toBytes() <= MAX_BYTES;
    }
  }
}
