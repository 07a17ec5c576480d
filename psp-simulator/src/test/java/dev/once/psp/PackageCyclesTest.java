package dev.once.psp;

import dev.once.testing.PackageCycles;

/**
 * No package of the PSP simulator uses, directly or through others, a package that uses it back.
 */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(PspSimulator.class);
  }
}
