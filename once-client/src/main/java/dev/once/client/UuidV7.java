package dev.once.client;

import java.time.Clock;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, the version (7), 12 bits
 * {@code rand_a}, the variant ({@code 10}), 62 random bits. {@code rand_a} is a counter seeded at
 * random each millisecond (RFC 9562 §6.2, method 1), so the keys of one generator are strictly
 * increasing even within a millisecond; when the counter runs out, the timestamp moves on by one
 * millisecond. Thread-safe.
 */
final class UuidV7 {
  private final Clock clock;
  private final RandomGenerator random;
  private long lastMillis = -1;
  private int counter;

  UuidV7(Clock clock, RandomGenerator random) {
    this.clock = clock;
    this.random = random;
  }

  synchronized UUID next() {
    long millis = clock.millis();
    if (millis > lastMillis) {
      lastMillis = millis;
      counter = random.nextInt(1 << 11); // leaves half the counter for keys in the same ms
    } else if (++counter > 0xFFF) {
      lastMillis++;
      counter = random.nextInt(1 << 11);
    }
    long msb = (lastMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | counter;
    long lsb = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
    return new UUID(msb, lsb);
  }
}
