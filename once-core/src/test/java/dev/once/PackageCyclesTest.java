package dev.once;

import static dev.once.testing.PackageCycles.NO_PACKAGE_CYCLES;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.testing.PackageCycles;
import org.junit.jupiter.api.Test;

/** No package of once-core uses, directly or through others, a package that uses it back. */
class PackageCyclesTest {
  @Test
  void coreHasNoPackageCycle() {
    NO_PACKAGE_CYCLES.check(PackageCycles.mainClassesOf(OnceException.class));
  }

  @Test
  void theRuleRefusesACycle() {
    assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(PackageCycles.twoPackagesInACycle()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected: dev.once.testing.cycle -> ")
        .hasMessageContaining("dev.once.testing.cycle.child -> ");
  }
}
