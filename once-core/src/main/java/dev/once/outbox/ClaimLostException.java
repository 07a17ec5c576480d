package dev.once.outbox;

import dev.once.OnceException;

/**
 * The relay no longer holds a row it was handling: its lease ran out (the process was paused or its
 * heartbeat failed) and another relay took the row, or the handler ran past its time-out and the
 * row was released for a retry. Thrown by {@link Completion#completeIn}; the transaction it was to
 * join must roll back, and the row's new holder delivers it.
 */
public final class ClaimLostException extends OnceException {
  private static final long serialVersionUID = 1L;

  private final long rowId;

  public ClaimLostException(long rowId) {
    super(
        "The relay no longer holds outbox row "
            + rowId
            + " (its lease ran out or its handler timed out); roll back: another attempt"
            + " delivers it.");
    this.rowId = rowId;
  }

  /** The row's id. */
  public long rowId() {
    return rowId;
  }
}
