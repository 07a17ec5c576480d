package dev.once.testing.cycle.a;

import dev.once.testing.cycle.b.B;

/** Half of a package cycle, for the tests that show the package cycle rule refusing one. */
public final class A {
  public B partner() {
    return new B();
  }
}
