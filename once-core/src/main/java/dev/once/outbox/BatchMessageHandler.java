package dev.once.outbox;

import java.util.List;

/**
 * A {@link MessageHandler} that takes many claimed rows of its type in one call: the batch path of
 * the relay. The Kafka publisher sends a claim's event rows together and awaits every
 * acknowledgement; the in-process transport applies them to each consumer in one inbox transaction;
 * a handler that records outcomes in the database records a batch of them in one transaction, with
 * the rows' completion ({@link BatchCompletion}) in the same commit.
 *
 * <p>The relay groups the rows of one claim by type and hands a batch handler up to {@code
 * handlerBatchSize} of them at once, on one worker, under one handler time-out (the type's); a
 * claim never holds two rows of one aggregate (the later one waits for the earlier to be
 * delivered), so the rows of a batch belong to different aggregates and their outcomes are
 * independent. The per-row contract of {@link MessageHandler} holds for each row: at least once, no
 * transaction open when called, effects idempotent on {@link OutboxRecord#messageId()}.
 *
 * <p><b>Failure isolation.</b> The handler answers one {@link Delivery} per row; each is recorded
 * per row exactly as a single row's would be (attempts, backoff, death). If {@code handleAll}
 * throws, or answers a list of the wrong size, the relay takes it as "the batch failed as a whole"
 * and calls {@link #handle(OutboxRecord, Completion)} for each row of the batch, one after the
 * other, in the same attempt: a poison row fails alone and the others are delivered (a row whose
 * completion had already committed finds its claim gone and is counted delivered). A handler that
 * rolls its batch transaction back may do the same itself, row by row, before it answers.
 */
public interface BatchMessageHandler extends MessageHandler {

  /**
   * Handles one attempt at each of {@code rows}: rows of this handler's type, of different
   * aggregates, in due order.
   *
   * @param completion the rows' completion, which the handler may join to the transaction in which
   *     it records their outcomes (all of them or some, once each)
   * @return one outcome per row, in the order of {@code rows}; never {@code null}
   * @throws Exception the batch failed as a whole: the relay handles the rows one at a time
   */
  List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) throws Exception;
}
