package dev.once;

import dev.once.testing.PackageCycles;

/** No package of once-core uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(OnceException.class);
  }
}
