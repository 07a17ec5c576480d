package dev.once.shop;

import dev.once.testing.PackageCycles;

/** No package of the shop uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(ShopApplication.class);
  }
}
