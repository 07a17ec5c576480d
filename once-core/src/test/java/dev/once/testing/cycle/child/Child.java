package dev.once.testing.cycle.child;

import dev.once.testing.cycle.Parent;

/** The other half of the package cycle of {@link Parent}. */
public final class Child {
  private final Parent parent;

  public Child(Parent parent) {
    this.parent = parent;
  }

  public Parent parent() {
    return parent;
  }
}
