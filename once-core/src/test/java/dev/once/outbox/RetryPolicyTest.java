package dev.once.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final Duration S1 = Duration.ofSeconds(1);

  @Test
  void boundsAreValidatedWithMessagesNamingTheField() {
    assertThatThrownBy(() -> new RetryPolicy(0, S1, 2.0, S1, 0))
        .hasMessage("maxAttempts must be 1 to 1000, but was 0");
    assertThatThrownBy(() -> new RetryPolicy(1001, S1, 2.0, S1, 0))
        .hasMessage("maxAttempts must be 1 to 1000, but was 1001");
    assertThatThrownBy(() -> new RetryPolicy(3, Duration.ZERO, 2.0, S1, 0))
        .hasMessage("initialDelay must be 1ms to 365d, but was PT0S");
    assertThatThrownBy(() -> new RetryPolicy(3, S1, 0.5, S1, 0))
        .hasMessage("multiplier must be 1.0 to 10.0, but was 0.5");
    assertThatThrownBy(() -> new RetryPolicy(3, S1, Double.NaN, S1, 0))
        .hasMessage("multiplier must be 1.0 to 10.0, but was NaN");
    assertThatThrownBy(() -> new RetryPolicy(3, S1, 2.0, Duration.ofMillis(999), 0))
        .hasMessage("maxDelay must be at least initialDelay (PT1S), but was PT0.999S");
    assertThatThrownBy(() -> new RetryPolicy(3, S1, 2.0, S1, 1.5))
        .hasMessage("jitter must be 0.0 to 1.0, but was 1.5");
    assertThatThrownBy(() -> new RetryPolicy(3, null, 2.0, S1, 0))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("initialDelay");
  }

  @Test
  void theBaseDelayGrowsByTheMultiplierUpToTheCap() {
    RetryPolicy p = RetryPolicy.DEFAULT;
    assertThat(p.baseDelay(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(p.baseDelay(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(p.baseDelay(9)).isEqualTo(Duration.ofSeconds(256));
    assertThat(p.baseDelay(10)).isEqualTo(Duration.ofMinutes(5));
    assertThat(p.baseDelay(1000)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void theLongestRetrySpanIsTheSumOfTheBaseDelaysBetweenAttempts() {
    assertThat(RetryPolicy.DEFAULT.longestRetrySpan()).isEqualTo(Duration.ofSeconds(511));
    assertThat(new RetryPolicy(1, S1, 2.0, S1, 0).longestRetrySpan()).isEqualTo(Duration.ZERO);
    assertThat(new RetryPolicy(4, S1, 3.0, Duration.ofSeconds(5), 0).longestRetrySpan())
        .isEqualTo(Duration.ofSeconds(1 + 3 + 5));
  }

  @Test
  void withoutJitterTheDelayIsTheBaseDelay() {
    RetryPolicy p = new RetryPolicy(5, S1, 2.0, Duration.ofMinutes(1), 0.0);
    assertThat(p.delay(3, new Random(1))).isEqualTo(Duration.ofSeconds(4));
  }

  @Property
  void theDelayStaysInTheJitterBandBelowTheBaseDelay(
      @ForAll @IntRange(min = 1, max = 1000) int attempt,
      @ForAll @DoubleRange(min = 0.0, max = 1.0) double jitter,
      @ForAll @LongRange(min = 1, max = 600_000) long initialMillis,
      @ForAll long seed) {
    RetryPolicy p =
        new RetryPolicy(
            1000, Duration.ofMillis(initialMillis), 2.0, Duration.ofMinutes(30), jitter);
    long base = p.baseDelay(attempt).toMillis();

    long delay = p.delay(attempt, new Random(seed)).toMillis();

    assertThat(delay).isBetween(Math.max(1, (long) Math.floor(base * (1.0 - jitter))), base);
  }

  @Property
  void theBaseDelayNeverShrinksAndNeverExceedsTheCap(
      @ForAll @IntRange(min = 1, max = 999) int attempt,
      @ForAll @DoubleRange(min = 1.0, max = 10.0) double multiplier) {
    RetryPolicy p = new RetryPolicy(1000, S1, multiplier, Duration.ofHours(1), 0.5);

    assertThat(p.baseDelay(attempt + 1)).isGreaterThanOrEqualTo(p.baseDelay(attempt));
    assertThat(p.baseDelay(attempt)).isLessThanOrEqualTo(Duration.ofHours(1));
  }
}
