package dev.once.verify.check;

/**
 * One invariant as two read-only queries.
 *
 * @param id short name
 * @param description one line, shown in the report
 * @param checkedSql a query of one number: how many rows the invariant is about
 * @param violationsSql a query whose first column is the (text) id of each violating row
 * @param allowed whether violations are only a warning
 */
record Invariant(
    String id, String description, String checkedSql, String violationsSql, boolean allowed) {

  /** An invariant whose violations are a failure, its query the file named by its id. */
  static Invariant of(String id, String description, String checkedSql) {
    return new Invariant(id, description, checkedSql, InvariantSql.violations(id), false);
  }
}
