package dev.once.idempotency;

/**
 * The state column of a stored key. Since the V6 migration a key's row is written once, {@code
 * COMPLETED} with its answer, at the end of the transaction that claimed it; the claim itself
 * writes nothing (the transaction's advisory lock on the scope marks the key in flight), so a
 * rolled-back request leaves no row at all. A completed row whose retention has run out is replaced
 * by the next completed request under that key, never changed back. This version never writes
 * {@code IN_PROGRESS}: older versions wrote it inside the claiming transaction, where only that
 * transaction sees it, and the database refuses to commit a row still in that state.
 */
public enum KeyState {
  IN_PROGRESS("in_progress"),
  COMPLETED("completed");

  private final String dbValue;

  KeyState(String dbValue) {
    this.dbValue = dbValue;
  }

  /** The value stored in the {@code state} column. */
  public String dbValue() {
    return dbValue;
  }

  public static KeyState fromDb(String value) {
    for (KeyState state : values()) {
      if (state.dbValue.equals(value)) {
        return state;
      }
    }
    throw new IllegalArgumentException("unknown key state: " + value);
  }
}
