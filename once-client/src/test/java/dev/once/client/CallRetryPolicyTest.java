package dev.once.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.LongUnaryOperator;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class CallRetryPolicyTest {
  /** Draws the top of the range: the jitter's ceiling. */
  private static final RandomGenerator HIGHEST = drawing(bound -> bound - 1);

  /** Draws the bottom of the range. */
  private static final RandomGenerator LOWEST = drawing(bound -> 0);

  /** A random source whose {@code nextLong(bound)} answers {@code draw.applyAsLong(bound)}. */
  private static RandomGenerator drawing(LongUnaryOperator draw) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        return 0;
      }

      @Override
      public long nextLong(long bound) {
        return draw.applyAsLong(bound);
      }
    };
  }

  private final CallRetryPolicy policy =
      CallRetryPolicy.builder()
          .initialDelay(Duration.ofMillis(100))
          .maxDelay(Duration.ofSeconds(1))
          .build();

  @Test
  void fullJitterDrawsFromZeroToTheDoublingCeilingCappedAtMaxDelay() {
    assertThat(policy.backoff(1, HIGHEST)).isEqualTo(Duration.ofMillis(100));
    assertThat(policy.backoff(2, HIGHEST)).isEqualTo(Duration.ofMillis(200));
    assertThat(policy.backoff(4, HIGHEST)).isEqualTo(Duration.ofMillis(800));
    assertThat(policy.backoff(5, HIGHEST)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoff(1_000, HIGHEST)).as("no overflow").isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoff(3, LOWEST)).isEqualTo(Duration.ZERO);
    RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
    for (int i = 0; i < 1_000; i++) {
      assertThat(policy.backoff(3, random)).isBetween(Duration.ZERO, Duration.ofMillis(400));
    }
  }

  @Test
  void badValuesAreRefusedByName() {
    assertThatThrownBy(() -> CallRetryPolicy.builder().maxAttempts(0).build())
        .hasMessage("maxAttempts must be at least 1, but was 0");
    assertThatThrownBy(() -> CallRetryPolicy.builder().deadline(Duration.ZERO).build())
        .hasMessage("deadline must be positive, but was PT0S");
    assertThatThrownBy(() -> CallRetryPolicy.builder().attemptTimeout(null).build())
        .hasMessage("attemptTimeout must be positive, but was null");
    assertThatThrownBy(() -> CallRetryPolicy.builder().initialDelay(Duration.ofSeconds(-1)).build())
        .hasMessage("initialDelay must be positive, but was PT-1S");
    assertThatThrownBy(
            () ->
                CallRetryPolicy.builder()
                    .initialDelay(Duration.ofSeconds(2))
                    .maxDelay(Duration.ofSeconds(1))
                    .build())
        .hasMessage("maxDelay must be at least initialDelay (PT2S), but was PT1S");
  }

  @Test
  void aPolicyIsAValue() {
    assertThat(policy.toBuilder().build()).isEqualTo(policy).hasSameHashCodeAs(policy);
    assertThat(CallRetryPolicy.defaults().deadline()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void retryAfterIsDeltaSecondsOrAnHttpDate() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    String inNinetySeconds =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.ofInstant(now.plusSeconds(90), ZoneOffset.UTC));

    assertThat(RetryAfter.parse("3", now)).contains(Duration.ofSeconds(3));
    assertThat(RetryAfter.parse(" 0 ", now)).contains(Duration.ZERO);
    assertThat(RetryAfter.parse(inNinetySeconds, now)).contains(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse("Wed, 31 Dec 2025 23:00:00 GMT", now))
        .as("a date past")
        .contains(Duration.ZERO);
    assertThat(RetryAfter.parse("soon", now)).isEmpty();
    assertThat(RetryAfter.parse("-1", now)).isEmpty();
    assertThat(RetryAfter.parse(null, now)).isEmpty();
  }

  @Test
  void theProblemTypeIsReadFromProblemAnswersOnly() {
    byte[] body =
        "{\"title\":\"x\",\"type\":\"https://once.dev/problems/idempotency-key-reused\"}"
            .getBytes();

    assertThat(ProblemType.of("application/problem+json", body))
        .isEqualTo("https://once.dev/problems/idempotency-key-reused");
    assertThat(ProblemType.of("application/json", body)).isNull();
    assertThat(ProblemType.of("application/problem+json", "{}".getBytes())).isNull();
    assertThat(ProblemType.is("https://x/y/idempotency-key-reused", "idempotency-key-reused"))
        .isTrue();
    assertThat(ProblemType.is("https://x/y/not-idempotency-key-reused", "idempotency-key-reused"))
        .isFalse();
  }
}
