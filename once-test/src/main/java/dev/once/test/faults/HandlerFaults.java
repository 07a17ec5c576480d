package dev.once.test.faults;

import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import java.sql.Connection;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Outbox handlers that fail at a chosen point, for hand-written tests of what a relay does then
 * (with a started relay or a {@code ManualRelay}). Each wrapper fails the FIRST attempt of each
 * message only (by message id), so the relay's retry goes through and the test sees the message
 * delivered twice to the wrapped handler: once failed, once done. Thread-safe if the handler is.
 */
public final class HandlerFaults {
  private HandlerFaults() {}

  /**
   * {@code handler}, crashing before its row's completion on each message's first attempt: the
   * handler runs (its outside effect happens), then the row is not marked delivered. A handler that
   * completes the row in its own transaction gets a {@link Completion} whose {@link
   * Completion#completeIn} throws {@link InjectedFault} (its transaction must roll back); one that
   * lets the relay complete the row sees {@link InjectedFault} thrown after it returned. Either way
   * the relay retries the row.
   */
  public static MessageHandler crashBeforeCompletion(MessageHandler handler) {
    Objects.requireNonNull(handler, "handler");
    Set<UUID> crashed = ConcurrentHashMap.newKeySet();
    return attempts(
        (message, completion) -> {
          if (!crashed.add(message.messageId())) {
            return handler.handle(message, completion);
          }
          handler.handle(message, crashingCompletion());
          throw new InjectedFault("after the handler, before its row's completion");
        });
  }

  /**
   * {@code handler}, failing after it returned {@link Delivery#done()} on each message's first
   * attempt: whatever the handler committed (its row's completion too, if it joined it) stays
   * committed, but the relay sees {@link InjectedFault} and retries (or, if the row was completed,
   * finds its claim lost).
   */
  public static MessageHandler failAfterCommit(MessageHandler handler) {
    Objects.requireNonNull(handler, "handler");
    Set<UUID> failed = ConcurrentHashMap.newKeySet();
    return attempts(
        (message, completion) -> {
          Delivery delivery = handler.handle(message, completion);
          if (delivery == Delivery.done() && failed.add(message.messageId())) {
            throw new InjectedFault("after the handler's commit, before the relay saw it done");
          }
          return delivery;
        });
  }

  /** One attempt with its row's completion. */
  @FunctionalInterface
  private interface Attempt {
    Delivery handle(OutboxRecord message, Completion completion) throws Exception;
  }

  /** A handler making each call, with or without a completion, an {@code attempt}. */
  private static MessageHandler attempts(Attempt attempt) {
    return new MessageHandler() {
      @Override
      public Delivery handle(OutboxRecord message) throws Exception {
        return attempt.handle(message, Completion.NONE);
      }

      @Override
      public Delivery handle(OutboxRecord message, Completion completion) throws Exception {
        return attempt.handle(message, completion);
      }
    };
  }

  /**
   * A completion whose {@link Completion#completeIn} throws {@link InjectedFault}: the process
   * crashed as the handler completed its row, so the handler's transaction must roll back and the
   * row is handled again.
   */
  public static Completion crashingCompletion() {
    return new Completion() {
      @Override
      public void completeIn(Connection tx) {
        throw new InjectedFault("at the row's completion, after the handler's call");
      }

      @Override
      public boolean joined() {
        return false;
      }
    };
  }
}
