package dev.once.kafka;

import static dev.once.testing.PackageCycles.NO_PACKAGE_CYCLES;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.testing.PackageCycles;
import org.junit.jupiter.api.Test;

/** No package of once-kafka uses, directly or through others, a package that uses it back. */
class PackageCyclesTest {
  @Test
  void kafkaTransportHasNoPackageCycle() {
    NO_PACKAGE_CYCLES.check(PackageCycles.mainClassesOf(KafkaEventPublisher.class));
  }

  @Test
  void theRuleRefusesACycle() {
    assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(PackageCycles.twoPackagesInACycle()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Cycle detected: dev.once.testing.cycle -> ")
        .hasMessageContaining("dev.once.testing.cycle.child -> ");
  }
}
