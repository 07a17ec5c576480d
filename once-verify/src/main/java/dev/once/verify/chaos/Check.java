package dev.once.verify.chaos;

import dev.once.verify.report.Verdict;

/** An invariant checked once the run is quiet; it produces one row of the verdict table. */
public interface Check {
  Verdict run(Observations o);
}
