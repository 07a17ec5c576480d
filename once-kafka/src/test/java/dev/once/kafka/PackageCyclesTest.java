package dev.once.kafka;

import dev.once.testing.PackageCycles;

/** No package of once-kafka uses, directly or through others, a package that uses it back. */
class PackageCyclesTest extends PackageCycles {
  PackageCyclesTest() {
    super(KafkaEventPublisher.class);
  }
}
