package dev.once.test;

/**
 * The test's probe of a business effect: a row count, a balance, the number of charges a provider
 * saw. The kit reads it before and after each thing it does and compares the values exactly (as
 * {@link java.math.BigDecimal}s): "one effect" is the amount the first execution moved it by, and
 * every later check expects exactly that amount again or nothing.
 *
 * <p>The kit assumes that nothing else moves the probe while an assertion runs: probe something the
 * request, the event or the message alone changes (the balance of an account made for the test, the
 * rows of one client), not a table other tests write at the same time.
 */
@FunctionalInterface
public interface Effect {

  /** The effect's value now, committed; never {@code null}. */
  Number read() throws Exception;
}
