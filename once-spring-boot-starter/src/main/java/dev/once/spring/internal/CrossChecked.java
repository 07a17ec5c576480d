package dev.once.spring.internal;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The rules of a {@link Rules} type that span several of its properties (one must be at most
 * another, say); each broken rule is reported on the property it names.
 */
@Target(TYPE)
@Retention(RUNTIME)
@Constraint(validatedBy = CrossChecked.Check.class)
public @interface CrossChecked {
  String message() default "inconsistent";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** A properties record with rules across its properties. */
  interface Rules {
    /** Reports each broken rule to {@code rejections}. */
    void check(Rejections rejections);
  }

  /** Collects broken rules. */
  interface Rejections {
    /**
     * @param property the record component (a path such as {@code inbox.retention} for a nested
     *     one) the rule is reported on
     */
    void reject(String property, String message);
  }

  final class Check implements ConstraintValidator<CrossChecked, Rules> {
    @Override
    public boolean isValid(Rules value, ConstraintValidatorContext context) {
      if (value == null) {
        return true;
      }
      boolean[] valid = {true};
      context.disableDefaultConstraintViolation();
      value.check(
          (property, message) -> {
            valid[0] = false;
            context
                .buildConstraintViolationWithTemplate(Bounds.literal(message))
                .addPropertyNode(property)
                .addConstraintViolation();
          });
      return valid[0];
    }
  }
}
