package dev.once.testing.cycle.b;

import dev.once.testing.cycle.a.A;

/** The other half of the package cycle of {@link A}. */
public final class B {
  public A partner() {
    return new A();
  }
}
