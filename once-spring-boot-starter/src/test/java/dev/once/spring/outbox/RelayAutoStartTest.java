package dev.once.spring.outbox;

import static dev.once.spring.outbox.OutboxTestApplication.CHARGE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.RelayListener;
import dev.once.spring.outbox.OutboxTestApplication.ChargeHandler;
import dev.once.spring.outbox.OutboxTestApplication.Orders;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code once.outbox.relay.auto-start=false}: the relay is built with the application's handlers
 * but does not run, so a test delivers by calling {@link OutboxRelay#runOnce()}; and every {@link
 * RelayListener} bean hears it, also when another one throws.
 */
class RelayAutoStartTest {
  private final ApplicationContextRunner runner =
      OutboxTestApplication.runner().withPropertyValues("once.outbox.relay.auto-start=false");

  @Test
  @Timeout(120)
  void aRelayThatDoesNotAutoStartExistsStaysStoppedAndDeliversWhenTicked() {
    Recording first = new Recording();
    Recording second = new Recording();
    runner
        .withBean("throwingListener", RelayListener.class, Throwing::new)
        .withBean("firstListener", RelayListener.class, () -> first)
        .withBean("secondListener", RelayListener.class, () -> second)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              OutboxRelay relay = context.getBean(OutboxRelay.class);
              assertThat(relay.isRunning()).isFalse();
              assertThat(context.getBean(OutboxRelayLifecycle.class).isRunning()).isFalse();
              ChargeHandler handler = context.getBean(ChargeHandler.class);

              OutboxEntry entry = context.getBean(Orders.class).append(CHARGE, "{}");
              assertThat(handler.handled).doesNotContain(entry.messageId());

              int handled = 0;
              for (int tick = 0;
                  tick < 100 && !handler.handled.contains(entry.messageId());
                  tick++) {
                handled += relay.runOnce();
              }
              assertThat(handled).isPositive();
              assertThat(handler.handled).contains(entry.messageId());
              assertThat(first.delivered).contains(entry.messageId());
              assertThat(second.delivered).contains(entry.messageId());
              assertThat(relay.isRunning()).isFalse();
            });
  }

  @Test
  @Timeout(120)
  void byDefaultTheRelayStartsWithTheContext() {
    runner
        .withPropertyValues("once.outbox.relay.auto-start=true")
        .run(context -> assertThat(context.getBean(OutboxRelay.class).isRunning()).isTrue());
  }

  /** Records the message ids delivered. */
  static final class Recording implements RelayListener {
    final List<UUID> delivered = new CopyOnWriteArrayList<>();

    @Override
    public void delivered(OutboxRecord message, Duration sinceCommit) {
      delivered.add(message.messageId());
    }
  }

  /** Throws on every delivery: must not keep the others from hearing it. */
  static final class Throwing implements RelayListener {
    @Override
    public void delivered(OutboxRecord message, Duration sinceCommit) {
      throw new IllegalStateException("a listener that fails");
    }
  }
}
