package dev.once.verify.check;

import java.util.List;

/**
 * One invariant's outcome over the whole database.
 *
 * @param id the invariant's short name, for example {@code account-balance}
 * @param description what the invariant says, one line
 * @param status {@link Status#PASS} when no row violates it; {@link Status#FAIL} otherwise, or
 *     {@link Status#WARN} when its violations were allowed (dead outbox rows under {@code
 *     --allow-dead})
 * @param checked how many rows were examined
 * @param violations how many rows violate it
 * @param examples up to {@link Invariants#EXAMPLES} violating ids, in order
 */
public record Verdict(
    String id,
    String description,
    Status status,
    long checked,
    long violations,
    List<String> examples) {

  /** PASS, FAIL or WARN (violations seen, but allowed). */
  public enum Status {
    PASS,
    FAIL,
    WARN
  }

  public Verdict {
    examples = List.copyOf(examples);
  }

  public boolean failed() {
    return status == Status.FAIL;
  }
}
