package dev.once.inbox;

import java.sql.Connection;
import java.util.List;

/**
 * An {@link InboxConsumer} that may take many messages in one transaction: the batch path of the
 * Kafka listeners (a poll's records of one partition) and of the in-process transport (a claim's
 * rows of one type). Implementing it is the consumer's opt-in: it says that its effect lives in the
 * inbox's transaction only, so that several messages' effects may commit together, and that a batch
 * rolled back as a whole and applied again message by message is harmless.
 *
 * <p>Guarantees are the per-message ones (G2): {@link Inbox#deliverAll} records every message of
 * the batch in the inbox in one statement, in one fixed order (by message id, so two batches never
 * deadlock on their inbox records), and calls {@link #consumeAll} with the messages new to this
 * consumer, in delivery order, in the same transaction; the records and the effects commit together
 * or not at all. If the batch fails, the caller rolls it back and delivers its messages one at a
 * time ({@link Inbox#deliver}), so a poison message is isolated, retried and given up alone, and
 * the others are applied once.
 */
public interface BatchInboxConsumer extends InboxConsumer {

  /**
   * Applies the effects of {@code messages} in {@code tx}: messages this consumer has not had, of
   * its types, with distinct message ids, in the order they were delivered (per aggregate, the
   * order they were published in). By default it calls {@link #consume} for each in turn; override
   * it to apply a batch with fewer statements (lock the rows the batch touches once, in one order,
   * then update them), as long as the effect is the same as one {@link #consume} after another.
   * Throwing rolls back the whole batch and its inbox records.
   *
   * @param tx the inbox's open transaction; do not commit, roll back or close it
   */
  default void consumeAll(Connection tx, List<InboxMessage> messages) throws Exception {
    for (InboxMessage message : messages) {
      consume(tx, message);
    }
  }
}
