package dev.once.spring.outbox;

import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.internal.ThreadMark;
import java.util.List;
import java.util.Objects;

/**
 * Marks a thread while it runs one of the relay's handlers (a provider call and its settlement, the
 * in-process transport's inbox consumers). Two things depend on it: load shedding never refuses
 * what the relay's own work appends (it drains the backlog), and the relay's handlers get their
 * connections from the relay's own pool. The starter wraps every handler it registers on the relay.
 */
final class RelayWork {
  private static final ThreadMark MARK = new ThreadMark();

  private RelayWork() {}

  /** Whether the calling thread runs a relay handler now. */
  static boolean active() {
    return MARK.active();
  }

  /**
   * {@code handler} with the calling thread marked for each call; every {@code handle} method is
   * passed on as it is, so a handler that completes its row in its own transaction still does, and
   * a {@link BatchMessageHandler} stays one.
   */
  static MessageHandler marked(MessageHandler handler) {
    Objects.requireNonNull(handler, "handler");
    if (handler instanceof BatchMessageHandler batch) {
      return new BatchMessageHandler() {
        @Override
        public Delivery handle(OutboxRecord message) throws Exception {
          return marking(() -> batch.handle(message));
        }

        @Override
        public Delivery handle(OutboxRecord message, Completion completion) throws Exception {
          return marking(() -> batch.handle(message, completion));
        }

        @Override
        public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion)
            throws Exception {
          return marking(() -> batch.handleAll(rows, completion));
        }
      };
    }
    return new MessageHandler() {
      @Override
      public Delivery handle(OutboxRecord message) throws Exception {
        return marking(() -> handler.handle(message));
      }

      @Override
      public Delivery handle(OutboxRecord message, Completion completion) throws Exception {
        return marking(() -> handler.handle(message, completion));
      }
    };
  }

  @FunctionalInterface
  private interface Call<T> {
    T run() throws Exception;
  }

  /** Marks the call as relay work, and as accepted work, which load shedding never refuses. */
  private static <T> T marking(Call<T> call) throws Exception {
    return MARK.call(() -> ThreadMark.ACCEPTED_WORK.call(call::run));
  }
}
