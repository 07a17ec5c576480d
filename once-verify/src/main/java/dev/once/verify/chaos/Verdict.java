package dev.once.verify.chaos;

import java.util.List;

/**
 * One row of the verdict table.
 *
 * @param name the invariant
 * @param pass no violation
 * @param checked how many things were checked
 * @param violations how many broke it
 * @param examples up to 5 ids of things that broke it
 */
public record Verdict(
    String name, boolean pass, long checked, long violations, List<String> examples) {

  /** A verdict from a count and the ids of the violations (all of them; keeps 5). */
  public static Verdict of(String name, long checked, List<String> violations) {
    return new Verdict(
        name,
        violations.isEmpty(),
        checked,
        violations.size(),
        List.copyOf(violations.subList(0, Math.min(5, violations.size()))));
  }
}
