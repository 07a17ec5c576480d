package dev.once.shop.persistence;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Text the shop can store: not blank, at most {@link #max} characters (Unicode code points, as
 * PostgreSQL's {@code char_length} and JSON Schema's {@code maxLength} count them; the OpenAPI
 * description shows the limit) and without NUL, which PostgreSQL text cannot hold, so that a bad
 * value is a 422 and never a database error. {@code null} is valid; add {@code @NotNull}.
 */
@Documented
@Constraint(validatedBy = Text.Validator.class)
@Target({ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface Text {
  /** The most code points. */
  int max();

  /** Unused: each broken rule has its own message. */
  String message() default "must be text the shop can store";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};

  /** Checks {@link Text}, naming the rule that a value breaks. */
  final class Validator implements ConstraintValidator<Text, String> {
    private int max;

    @Override
    public void initialize(Text text) {
      max = text.max();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
      String broken =
          value == null
              ? null
              : value.isBlank()
                  ? "must not be blank"
                  : value.codePointCount(0, value.length()) > max
                      ? "must be at most " + max + " characters"
                      : value.indexOf('\u0000') >= 0 ? "must not contain the NUL character" : null;
      if (broken != null) {
        context.disableDefaultConstraintViolation();
        context.buildConstraintViolationWithTemplate(broken).addConstraintViolation();
      }
      return broken == null;
    }
  }
}
