package dev.once.spring.web;

import dev.once.idempotency.IdempotencyLimits;
import java.time.Duration;
import org.springframework.boot.convert.DurationStyle;

/** Reads {@link Idempotent#retention()}: Spring Boot's duration notation, checked by once-core. */
final class EndpointRetention {
  private EndpointRetention() {}

  /**
   * The endpoint's retention, or {@code null} if it sets none.
   *
   * @param handler names the handler in the message of a bad value
   * @throws IllegalStateException if the value is not a duration or shorter than one second
   */
  static Duration of(Idempotent annotation, Object handler) {
    String value = annotation.retention().trim();
    if (value.isEmpty()) {
      return null;
    }
    try {
      return IdempotencyLimits.checkRetention(DurationStyle.detectAndParse(value));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "@Idempotent(retention = \""
              + annotation.retention()
              + "\") on "
              + handler
              + " is not a usable retention: "
              + e.getMessage()
              + " (a duration such as \"90s\", \"1h\", \"7d\" or \"PT1H\", at least 1 second)",
          e);
    }
  }
}
