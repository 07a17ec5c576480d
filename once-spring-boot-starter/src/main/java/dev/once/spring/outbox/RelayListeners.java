package dev.once.spring.outbox;

import dev.once.outbox.OutboxRecord;
import dev.once.outbox.RelayListener;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@link RelayListener} bean as the relay's one listener (the metrics' beside a test's
 * recording one): each call goes to every listener in order, and what one throws is logged and does
 * not keep the call from the others. Thread-safe if the listeners are.
 */
final class RelayListeners implements RelayListener {
  private static final Logger log = LoggerFactory.getLogger(RelayListeners.class);
  private final List<RelayListener> listeners;

  private RelayListeners(List<RelayListener> listeners) {
    this.listeners = listeners;
  }

  /** {@code listeners} as one: {@link RelayListener#NONE} if empty, the listener if only one. */
  static RelayListener of(List<RelayListener> listeners) {
    List<RelayListener> heard =
        listeners.stream().filter(listener -> listener != RelayListener.NONE).toList();
    return switch (heard.size()) {
      case 0 -> RelayListener.NONE;
      case 1 -> heard.get(0);
      default -> new RelayListeners(heard);
    };
  }

  private void each(String event, Consumer<RelayListener> call) {
    for (RelayListener listener : listeners) {
      try {
        call.accept(listener);
      } catch (RuntimeException | LinkageError e) {
        log.warn("relay listener " + listener.getClass().getName() + " failed on " + event, e);
      }
    }
  }

  @Override
  public void claimed(int rows, int limit) {
    each("claimed", listener -> listener.claimed(rows, limit));
  }

  @Override
  public void delivered(OutboxRecord message, Duration sinceCommit) {
    each("delivered", listener -> listener.delivered(message, sinceCommit));
  }

  @Override
  public void retried(OutboxRecord message, String reason, Instant nextAttemptAt) {
    each("retried", listener -> listener.retried(message, reason, nextAttemptAt));
  }

  @Override
  public void dead(OutboxRecord message, String reason) {
    each("dead", listener -> listener.dead(message, reason));
  }

  @Override
  public void claimLost(OutboxRecord message) {
    each("claimLost", listener -> listener.claimLost(message));
  }
}
