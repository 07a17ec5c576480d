package dev.once.verify.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The seeded plan of {@code chaos --network-faults}. */
class NetworkFaultsTest {

  @Test
  void theSameSeedGivesTheSamePlanEachFaultInsideItsSlot() {
    Duration d = Duration.ofMinutes(10);
    List<NetworkFaults.Fault> plan = NetworkFaults.plan(42, 20, 2, NetworkFaults.WITH_BROKER, d);
    assertThat(NetworkFaults.plan(42, 20, 2, NetworkFaults.WITH_BROKER, d)).isEqualTo(plan);
    assertThat(NetworkFaults.plan(43, 20, 2, NetworkFaults.WITH_BROKER, d)).isNotEqualTo(plan);
    // 120 slots, 20% of them: a seeded draw each, so about 24.
    assertThat(plan).hasSizeBetween(10, 40);
    long slot = NetworkFaults.SLOT.toMillis();
    for (NetworkFaults.Fault f : plan) {
      long start = f.at().toMillis() / slot * slot;
      assertThat(f.at().toMillis() - start).isLessThan(slot / 2);
      assertThat(f.length()).isBetween(Duration.ofMillis(1), Duration.ofSeconds(4));
      assertThat(f.at().plus(f.length()).toMillis()).isLessThanOrEqualTo(start + slot);
      assertThat(f.shop()).isBetween(0, 1);
      assertThat(NetworkFaults.WITH_BROKER).contains(f.dependency());
    }
    assertThat(plan).extracting(NetworkFaults.Fault::kind).contains(NetworkFaults.Kind.values());
    assertThat(plan).extracting(NetworkFaults.Fault::shop).contains(0, 1);
    assertThat(plan)
        .extracting(NetworkFaults.Fault::dependency)
        .contains("postgres", "provider", "broker");
  }

  @Test
  void zeroIsNoFaultAndAHundredIsOneInEverySlot() {
    Duration d = Duration.ofSeconds(60);
    assertThat(NetworkFaults.plan(7, 0, 1, NetworkFaults.DEPENDENCIES, d)).isEmpty();
    List<NetworkFaults.Fault> all = NetworkFaults.plan(7, 100, 1, NetworkFaults.DEPENDENCIES, d);
    assertThat(all).hasSize(12);
    assertThat(all).allMatch(f -> f.shop() == 0 && !f.dependency().equals("broker"));
    assertThat(all.get(0).describe()).matches("[a-z]+ of shop 1's route to [a-z]+ for \\d\\.\\ds");
  }
}
