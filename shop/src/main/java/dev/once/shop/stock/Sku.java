package dev.once.shop.stock;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Pattern;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The shape of a product code: 1 to {@value #MAX_LENGTH} characters of {@code A-Z a-z 0-9 . _ -},
 * the first a letter or a digit, so it can stand in a URL path as it is (a code such as {@code ..}
 * would be rewritten by HTTP clients into another path). The database's CHECK backs it up.
 */
public final class Sku {
  /** The most characters of a product code. */
  public static final int MAX_LENGTH = 64;

  private Sku() {}

  /**
   * Whether {@code sku} is well formed: checked before a product code from a path reaches the
   * database, so that a malformed one is answered like an unknown one, without a query.
   */
  public static boolean isWellFormed(String sku) {
    if (sku == null || sku.isEmpty() || sku.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < sku.length(); i++) {
      char c = sku.charAt(i);
      boolean alphanumeric =
          (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      boolean allowed = alphanumeric || (i > 0 && (c == '.' || c == '_' || c == '-'));
      if (!allowed) {
        return false;
      }
    }
    return true;
  }

  /** A request field that holds a product code. */
  @Documented
  @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
  @ReportAsSingleViolation
  @Constraint(validatedBy = {})
  @Target(ElementType.FIELD)
  @Retention(RetentionPolicy.RUNTIME)
  public @interface Code {
    String message() default
        "must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' and '-', starting with a letter or a"
            + " digit, such as \"TEA-GREEN-100\"";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
  }
}
