package dev.once.verify.cyclefixture.b;

import dev.once.verify.cyclefixture.a.UsesB;

/** The other half of the cycle, for PackageCyclesTest: uses package a, which uses this one. */
public final class UsesA {
  public int viaA() {
    return new UsesB().value() + 1;
  }

  public int value() {
    return 2;
  }
}
