package dev.once.verify.report;

import java.util.List;

/**
 * One invariant's outcome, a row of a verdict table: of {@code check} over the whole database, and
 * of {@code chaos} over a run (whose rows include check's, prefixed {@code db:}).
 *
 * @param id the invariant's short name, for example {@code account-balance}
 * @param description what the invariant says, one line
 * @param status {@link Status#PASS} when no row violates it; {@link Status#FAIL} otherwise, or
 *     {@link Status#WARN} when its violations were allowed (dead outbox rows under {@code
 *     --allow-dead})
 * @param checked how many rows were examined
 * @param violations how many rows violate it
 * @param examples up to {@link #EXAMPLES} violating ids, in order
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

  /** How many examples a verdict keeps. */
  public static final int EXAMPLES = 5;

  public Verdict {
    examples = List.copyOf(examples);
  }

  /**
   * PASS or FAIL from {@code violations}, all of them (keeps the first {@link #EXAMPLES}); the
   * description is the id, which says it all.
   */
  public static Verdict of(String id, long checked, List<String> violations) {
    return new Verdict(
        id,
        id,
        violations.isEmpty() ? Status.PASS : Status.FAIL,
        checked,
        violations.size(),
        violations.subList(0, Math.min(EXAMPLES, violations.size())));
  }

  /** Whether it holds: PASS, or WARN (violations seen, but allowed). */
  public boolean pass() {
    return status != Status.FAIL;
  }

  public boolean failed() {
    return status == Status.FAIL;
  }
}
