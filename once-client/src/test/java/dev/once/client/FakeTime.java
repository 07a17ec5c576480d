package dev.once.client;

import dev.once.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The client's clock and sleeper in tests: a clock that stands still until the client sleeps on it,
 * then moves on by exactly the sleep. So a test sees the waits the client chose, by the client's
 * own clock, and never sleeps.
 */
final class FakeTime implements Sleeper {
  final MutableClock clock;
  final List<Duration> sleeps = new CopyOnWriteArrayList<>();
  private volatile Runnable onSleep = () -> {};

  FakeTime(Instant start) {
    this.clock = new MutableClock(start);
  }

  FakeTime() {
    this(Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** Runs {@code action} at every sleep, after the clock moved on. */
  FakeTime onSleep(Runnable action) {
    this.onSleep = action;
    return this;
  }

  @Override
  public void sleep(Duration duration) {
    sleeps.add(duration);
    clock.advance(duration);
    onSleep.run();
  }

  void advance(Duration d) {
    clock.advance(d);
  }
}
