package dev.once.shop.clients;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded set of API-key hashes (never keys), each remembered for a fixed time after it was last
 * added; when the set is full, adding drops the least recently used hash. Memory is bounded by the
 * capacity (under 200 bytes a hash), whatever a client sends. Thread-safe: one lock, every
 * operation O(1).
 */
final class RecentKeyHashes {
  private final int capacity;
  private final Duration remembered;
  private final Clock clock;

  /** Guarded by itself; in access order, so the eldest entry is the least recently used. */
  private final LinkedHashMap<ByteBuffer, Instant> expiries;

  RecentKeyHashes(int capacity, Duration remembered, Clock clock) {
    this.capacity = capacity;
    this.remembered = remembered;
    this.clock = clock;
    this.expiries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Instant> eldest) {
            return size() > RecentKeyHashes.this.capacity;
          }
        };
  }

  /** Whether {@code hash} was added less than the remembered time ago (and not removed since). */
  boolean contains(byte[] hash) {
    ByteBuffer key = key(hash);
    synchronized (expiries) {
      Instant expiry = expiries.get(key);
      if (expiry == null) {
        return false;
      }
      if (!clock.instant().isBefore(expiry)) {
        expiries.remove(key);
        return false;
      }
      return true;
    }
  }

  /** Remembers {@code hash} for the remembered time from now. */
  void add(byte[] hash) {
    Instant expiry = clock.instant().plus(remembered);
    synchronized (expiries) {
      expiries.put(key(hash), expiry);
    }
  }

  /** Forgets {@code hash}. */
  void remove(byte[] hash) {
    synchronized (expiries) {
      expiries.remove(key(hash));
    }
  }

  /** A read-only view, compared by content: a hash as a map key. */
  private static ByteBuffer key(byte[] hash) {
    return ByteBuffer.wrap(hash).asReadOnlyBuffer();
  }
}
