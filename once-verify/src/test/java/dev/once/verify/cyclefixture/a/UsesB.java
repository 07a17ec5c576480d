package dev.once.verify.cyclefixture.a;

import dev.once.verify.cyclefixture.b.UsesA;

/** Half of a package cycle, for PackageCyclesTest: uses package b, which uses this one. */
public final class UsesB {
  public int viaB() {
    return new UsesA().value() + 1;
  }

  public int value() {
    return 1;
  }
}
