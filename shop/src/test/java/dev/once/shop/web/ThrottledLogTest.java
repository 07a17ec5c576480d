package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.once.shop.support.LogCapture;
import dev.once.shop.support.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One warning per condition and interval, and the next one counts what was left out. */
class ThrottledLogTest {
  private static final String LOGGER = "dev.once.shop.web.ThrottledLogTest";
  private final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T12:00:00Z"));
  private final ThrottledLog log =
      new ThrottledLog(LoggerFactory.getLogger(LOGGER), Duration.ofSeconds(10), clock);

  @Test
  void eachConditionIsLoggedOncePerIntervalWithTheCountOfWhatWasLeftOut() {
    try (LogCapture logs = LogCapture.start()) {
      for (int i = 0; i < 5; i++) {
        log.warn("pool", () -> "pool full");
        log.warn("57014", () -> "statement cancelled");
      }
      clock.advance(Duration.ofSeconds(9));
      log.warn("pool", () -> "pool full");
      assertThat(messages(logs)).hasSize(2);

      clock.advance(Duration.ofSeconds(1));
      log.warn("pool", () -> "pool full");

      assertThat(messages(logs))
          .containsExactly(
              "pool full (0 more since the previous such message; it repeats at most every 10 s)",
              "statement cancelled (0 more since the previous such message; it repeats at most"
                  + " every 10 s)",
              "pool full (5 more since the previous such message; it repeats at most every 10 s)");
      logs.assertNoErrors();
    }
  }

  @Test
  void aClockSetBackDoesNotSilenceTheCondition() {
    try (LogCapture logs = LogCapture.start()) {
      log.warn("pool", () -> "pool full");
      clock.advance(Duration.ofSeconds(-3600));
      log.warn("pool", () -> "pool full");
      assertThat(messages(logs)).hasSize(2);
    }
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

  private static List<String> messages(LogCapture logs) {
    return logs.events().stream()
        .filter(e -> e.getLoggerName().equals(LOGGER))
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }
}
