package dev.once.spring.internal;

import jakarta.validation.ConstraintValidatorContext;
import java.time.Duration;

/** Shared by Once's constraint validators: how a bound reads, and how a violation is reported. */
public final class Bounds {
  private Bounds() {}

  /** A duration as a person writes it in a properties file: 500ms, 10s, 5m, 24h, 365d. */
  public static String duration(long millis) {
    if (millis == 0) {
      return "0s";
    }
    if (millis % 86_400_000L == 0 && millis > 86_400_000L) {
      return millis / 86_400_000L + "d";
    }
    if (millis % 3_600_000L == 0) {
      return millis / 3_600_000L + "h";
    }
    if (millis % 60_000L == 0) {
      return millis / 60_000L + "m";
    }
    if (millis % 1_000L == 0) {
      return millis / 1_000L + "s";
    }
    return millis + "ms";
  }

  public static String duration(Duration d) {
    return duration(d.toMillis());
  }

  /** Reports {@code message} in place of the constraint's template, interpolating nothing. */
  public static boolean reject(ConstraintValidatorContext context, String message) {
    context.disableDefaultConstraintViolation();
    context.buildConstraintViolationWithTemplate(literal(message)).addConstraintViolation();
    return false;
  }

  /** {@code message} as a message template that reads as itself. */
  public static String literal(String message) {
    return message
        .replace("\\", "\\\\")
        .replace("{", "\\{")
        .replace("}", "\\}")
        .replace("$", "\\$");
  }
}
