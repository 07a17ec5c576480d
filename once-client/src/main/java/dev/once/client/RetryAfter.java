package dev.once.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Reads a {@code Retry-After} value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. */
final class RetryAfter {
  private RetryAfter() {}

  /**
   * The wait it asks for, measured from {@code now}: zero for a date already past; empty when
   * absent or unreadable (then the backoff applies).
   */
  static Optional<Duration> parse(String value, Instant now) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    if (!v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      // More digits than a long holds is still "a very long time".
      return Optional.of(
          v.length() > 12
              ? Duration.ofSeconds(999_999_999_999L)
              : Duration.ofSeconds(Long.parseLong(v)));
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
