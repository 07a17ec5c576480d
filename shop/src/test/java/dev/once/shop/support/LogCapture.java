package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.LoggerFactory;

/**
 * Records every log event of the running shop while open, with the shop's own loggers at DEBUG, so
 * that a test can prove how a failure was logged: a refusal at DEBUG, never an ERROR with a stack
 * trace. Close it (try-with-resources) to restore the levels.
 */
public final class LogCapture implements AutoCloseable {
  private static final String SHOP_LOGGERS = "dev.once.shop";

  private final ConcurrentLinkedQueue<ILoggingEvent> events = new ConcurrentLinkedQueue<>();
  private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final Logger shop = (Logger) LoggerFactory.getLogger(SHOP_LOGGERS);
  private final Level shopLevel;
  private final AppenderBase<ILoggingEvent> appender =
      new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
          event.prepareForDeferredProcessing();
          events.add(event);
        }
      };

  private LogCapture() {
    shopLevel = shop.getLevel();
    shop.setLevel(Level.DEBUG);
    appender.setName("test-capture");
    appender.setContext(root.getLoggerContext());
    appender.start();
    root.addAppender(appender);
  }

  /** Starts recording. */
  public static LogCapture start() {
    return new LogCapture();
  }

  /** Every event so far. */
  public List<ILoggingEvent> events() {
    return List.copyOf(events);
  }

  /** Waits until an event matches, looking every 20 ms, failing after {@code timeout}. */
  public ILoggingEvent await(Predicate<ILoggingEvent> match, Duration timeout) {
    try {
      return Awaitility.await()
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> events.stream().filter(match).findFirst(), Optional::isPresent)
          .get();
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "no matching log event within " + timeout + "; got " + describe(), e);
    }
  }

  /** Waits for a DEBUG event of the shop whose message contains {@code text}. */
  public ILoggingEvent awaitDebug(String text) {
    return await(
        e -> e.getLevel() == Level.DEBUG && e.getFormattedMessage().contains(text),
        Duration.ofSeconds(10));
  }

  /** Asserts that nothing was logged at ERROR, and nothing at WARN or above with a stack trace. */
  public void assertNoErrors() {
    assertThat(events())
        .as("ERROR events, or WARN events with a stack trace")
        .noneMatch(
            e ->
                e.getLevel().isGreaterOrEqual(Level.ERROR)
                    || (e.getLevel().isGreaterOrEqual(Level.WARN)
                        && e.getThrowableProxy() != null));
  }

  private String describe() {
    StringBuilder out = new StringBuilder();
    for (ILoggingEvent event : events) {
      out.append("\n  ")
          .append(event.getLevel())
          .append(' ')
          .append(event.getLoggerName())
          .append(": ")
          .append(event.getFormattedMessage());
    }
    return out.toString();
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    appender.stop();
    shop.setLevel(shopLevel);
  }
}
