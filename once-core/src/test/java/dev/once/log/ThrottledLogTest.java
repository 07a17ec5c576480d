package dev.once.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** One warning per condition and interval, and the next one counts what was left out. */
class ThrottledLogTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-06-01T12:00:00Z"));
  private final List<String> messages = new ArrayList<>();
  private final ThrottledLog log =
      new ThrottledLog(messages::add, Duration.ofSeconds(10), now::get);

  private void advance(Duration by) {
    now.set(now.get().plus(by));
  }

  @Test
  void eachConditionIsLoggedOncePerIntervalWithTheCountOfWhatWasLeftOut() {
    for (int i = 0; i < 5; i++) {
      log.warn("pool", () -> "pool full");
      log.warn("57014", () -> "statement cancelled");
    }
    advance(Duration.ofSeconds(9));
    log.warn("pool", () -> "pool full");
    assertThat(messages).hasSize(2);

    advance(Duration.ofSeconds(1));
    log.warn("pool", () -> "pool full");

    assertThat(messages)
        .containsExactly(
            "pool full (0 more since the previous such message; it repeats at most every 10 s)",
            "statement cancelled (0 more since the previous such message; it repeats at most"
                + " every 10 s)",
            "pool full (5 more since the previous such message; it repeats at most every 10 s)");
  }

  @Test
  void aClockSetBackDoesNotSilenceTheCondition() {
    log.warn("pool", () -> "pool full");
    advance(Duration.ofSeconds(-3600));
    log.warn("pool", () -> "pool full");
    assertThat(messages).hasSize(2);
  }

  @Test
  void aMessageLeftOutIsNeverBuilt() {
    log.warn("pool", () -> "pool full");
    log.warn(
        "pool",
        () -> {
          throw new AssertionError("built although left out");
        });
  }
}
