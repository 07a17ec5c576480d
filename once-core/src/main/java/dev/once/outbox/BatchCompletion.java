package dev.once.outbox;

import java.sql.Connection;
import java.util.List;

/**
 * The relay's completion of the rows of one batch ({@link BatchMessageHandler}), joined to the
 * handler's own transaction for any subset of them: {@link #of(List)} is a {@link Completion} that
 * completes those rows in one statement, each row fenced by its own claim (a compare-and-set on id
 * and claim, per row, as a single row's).
 *
 * <p>If any row of the subset is no longer held by this relay (its lease ran out and another relay
 * took it over), {@link Completion#completeIn(Connection)} throws {@link ClaimLostException} naming
 * it: the transaction must roll back, and the handler should go on row by row ({@link #of(
 * OutboxRecord)}), so that the rows still held are completed and the lost one is left to its new
 * holder. A row completed in a transaction that committed is {@link #joined(OutboxRecord)}; the
 * relay completes the other rows answered {@link Delivery#done()} itself, in one statement.
 *
 * <p>Thread-safe.
 */
public interface BatchCompletion {

  /** For callers outside the relay (tests, tools): completes nothing, joins nothing. */
  BatchCompletion NONE =
      new BatchCompletion() {
        @Override
        public Completion of(List<OutboxRecord> rows) {
          return Completion.NONE;
        }

        @Override
        public boolean joined(OutboxRecord row) {
          return false;
        }
      };

  /**
   * The completion of {@code rows} (rows of this batch, each at most once over all the completions
   * made), to be joined to one transaction.
   */
  Completion of(List<OutboxRecord> rows);

  /** The completion of one row of this batch. */
  default Completion of(OutboxRecord row) {
    return of(List.of(row));
  }

  /**
   * Whether {@code row} was completed by a {@link Completion#completeIn} that returned. Its
   * transaction may still roll back: a handler that joined a completion and then failed must answer
   * a failure, as a single row's handler must.
   */
  boolean joined(OutboxRecord row);
}
