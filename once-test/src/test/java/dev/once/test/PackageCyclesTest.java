package dev.once.test;

import dev.once.testing.PackageCycles;

/** No package of once-test uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(OnceAssertions.class);
  }
}
