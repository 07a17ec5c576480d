package dev.once.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class UuidV7Test {
  private final FakeTime time = new FakeTime(Instant.ofEpochMilli(0x0190_1234_5678L));
  private final UuidV7 keys = new UuidV7(time.clock, new SplittableRandom(7));

  @Test
  void theLayoutIsRfc9562Version7() {
    UUID u = keys.next();

    assertThat(u.version()).isEqualTo(7);
    assertThat(u.variant()).as("variant 10xx").isEqualTo(2);
    assertThat(u.getMostSignificantBits() >>> 16)
        .as("48-bit Unix milliseconds")
        .isEqualTo(0x0190_1234_5678L);
    assertThat(u.toString()).matches("01901234-5678-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }

  @Test
  void keysIncreaseWithinAMillisecondAcrossMillisecondsAndWhenTheClockGoesBack() {
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) { // several counter overflows within one millisecond
      made.add(keys.next().toString());
    }
    time.advance(Duration.ofMillis(5));
    made.add(keys.next().toString());
    time.advance(Duration.ofMillis(-50));
    made.add(keys.next().toString());

    // Fixed-length lower-case hex: text order is numeric order.
    assertThat(made).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void aNewMillisecondStartsFromItsOwnTimestamp() {
    UUID first = keys.next();
    time.advance(Duration.ofMillis(1));
    UUID second = keys.next();

    assertThat((second.getMostSignificantBits() >>> 16) - (first.getMostSignificantBits() >>> 16))
        .isEqualTo(1);
  }

  @Test
  void theRandomBitsDiffer() {
    assertThat(keys.next().getLeastSignificantBits())
        .isNotEqualTo(keys.next().getLeastSignificantBits());
  }
}
