package dev.once.client;

import dev.once.testing.PackageCycles;

/** No package of once-client uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(OnceClient.class);
  }
}
