package dev.once.spring;

import dev.once.testing.PackageCycles;

/** No package of the starter uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(OnceAutoConfiguration.class);
  }
}
