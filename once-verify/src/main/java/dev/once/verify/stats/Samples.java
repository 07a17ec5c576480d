package dev.once.verify.stats;

import java.util.Arrays;

/** A growable array of longs (latencies in nanoseconds), one per worker thread. Not thread-safe. */
public final class Samples {
  private long[] values = new long[1 << 14];
  private int size;

  public void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  public int size() {
    return size;
  }

  public long get(int i) {
    return values[i];
  }

  /** All values of {@code parts}, sorted ascending. */
  public static long[] mergeSorted(Iterable<Samples> parts) {
    int total = 0;
    for (Samples part : parts) {
      total += part.size;
    }
    long[] all = new long[total];
    int at = 0;
    for (Samples part : parts) {
      System.arraycopy(part.values, 0, all, at, part.size);
      at += part.size;
    }
    Arrays.sort(all);
    return all;
  }
}
