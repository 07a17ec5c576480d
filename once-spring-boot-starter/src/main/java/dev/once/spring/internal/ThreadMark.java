package dev.once.spring.internal;

import java.util.concurrent.Callable;

/**
 * A mark a thread carries while it runs a call ({@link #call}), read back with {@link #active}: how
 * Once tells its own kinds of work apart on a thread it shares with the application's code. Nested
 * calls keep the mark until the outermost ends. Thread-safe.
 */
public final class ThreadMark {
  /**
   * Work on what the service has already accepted rather than new work: an inbox consumer that
   * once-kafka's listeners run on a record from the broker. The outbox's load shedding never
   * refuses what such a thread appends: the record was accepted when its event was committed
   * upstream, and refusing its consumer would only roll the effect back and retry the record (its
   * partition stalled behind it, its lag growing, and after {@code max-attempts} a dead-lettered
   * record), which drains nothing. The relay's own handlers run inside it too ({@code
   * dev.once.spring.outbox.RelayWork}): the one mark that load shedding reads.
   */
  public static final ThreadMark ACCEPTED_WORK = new ThreadMark();

  private final ThreadLocal<Boolean> active = new ThreadLocal<>();

  /** Whether the calling thread is inside {@link #call} of this mark now. */
  public boolean active() {
    return active.get() != null;
  }

  /**
   * Runs {@code work} with the calling thread marked, and unmarks it after (unless an outer call of
   * this mark marked it).
   */
  public <T> T call(Callable<T> work) throws Exception {
    boolean outer = !active();
    active.set(Boolean.TRUE);
    try {
      return work.call();
    } finally {
      if (outer) {
        active.remove();
      }
    }
  }
}
