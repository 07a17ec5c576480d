package dev.once.verify.chaos;

/** An invariant checked once the run is quiet; it produces one row of the verdict table. */
public interface Check {
  Verdict run(Observations o);
}
