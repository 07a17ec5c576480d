package dev.once.verify.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.verify.UsageException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ChaosOptionsTest {
  @Test
  void defaultsAndFlags() throws UsageException {
    ChaosOptions d = ChaosOptions.parse(new String[0]);
    assertEquals(Duration.ofMinutes(2), d.duration());
    assertEquals(3, d.kills());
    assertTrue(d.out().startsWith("chaos-results"));
    ChaosOptions o =
        ChaosOptions.parse(
            new String[] {
              "--duration",
              "90s",
              "--kills=5",
              "--provider-faults",
              "30",
              "--seed",
              "42",
              "--out",
              "x"
            });
    assertEquals(Duration.ofSeconds(90), o.duration());
    assertEquals(5, o.kills());
    assertEquals(30, o.providerFaults());
    assertEquals(42, o.seed());
    assertEquals(Path.of("x"), o.out());
  }

  @Test
  void badFlagsAreUsageErrors() {
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--kills", "-1"}));
    assertThrows(
        UsageException.class, () -> ChaosOptions.parse(new String[] {"--provider-faults", "101"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--duration", "2x"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--seed", "a"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--nope", "1"}));
    assertThrows(UsageException.class, () -> ChaosOptions.parse(new String[] {"--kills"}));
  }
}
