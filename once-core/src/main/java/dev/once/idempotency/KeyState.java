package dev.once.idempotency;

/**
 * The life of a stored key. Legal transitions: {@code IN_PROGRESS → COMPLETED} (the request's
 * answer is stored) and, once a completed key has expired, {@code COMPLETED → IN_PROGRESS} (a new
 * request reclaims it). A rolled-back claim leaves no row at all.
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
