package dev.once.testing.cycle;

import dev.once.testing.cycle.child.Child;

/**
 * Half of a package cycle between a package and its subpackage, for the tests that show the package
 * cycle rule refusing one: it uses {@link Child}, which uses it back.
 */
public final class Parent {
  public Child child() {
    return new Child(this);
  }
}
