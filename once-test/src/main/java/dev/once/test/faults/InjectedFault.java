package dev.once.test.faults;

/**
 * What every fault hook of the kit throws: a failure the test asked for, at a chosen point (after
 * the handler's writes but before their commit, after the commit but before the answer, before an
 * outbox row's completion). Code under test must treat it as any other failure: roll back, retry.
 */
public final class InjectedFault extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A fault injected at {@code where}, e.g. {@code "after the handler, before the commit"}. */
  public InjectedFault(String where) {
    super("fault injected by once-test: " + where, null, false, false);
  }
}
