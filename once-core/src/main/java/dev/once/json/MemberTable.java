package dev.once.json;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Stack of the members of the objects currently open in a {@link JsonParser}. Each member records
 * its unescaped name and where its canonical {@code "name":value} bytes lie in the output, so that
 * closing an object can detect duplicate names and put the members in RFC 8785 order. Not
 * thread-safe; one instance per call.
 */
final class MemberTable {
  private String[] names = new String[16];
  private int[] starts = new int[16];
  private int[] ends = new int[16];
  private int[] nameOffsets = new int[16];
  private int size;
  private byte[] scratch = new byte[0];

  /** RFC 8785 order: String.compareTo compares the UTF-16 code units of the names. */
  private final Comparator<Integer> byName = (a, b) -> names[a].compareTo(names[b]);

  int size() {
    return size;
  }

  /** Opens a member whose name starts at {@code outputStart} in the output. */
  void add(String name, int outputStart, int nameOffset) {
    if (size == names.length) {
      int capacity = size * 2;
      names = Arrays.copyOf(names, capacity);
      starts = Arrays.copyOf(starts, capacity);
      ends = Arrays.copyOf(ends, capacity);
      nameOffsets = Arrays.copyOf(nameOffsets, capacity);
    }
    names[size] = name;
    starts[size] = outputStart;
    nameOffsets[size] = nameOffset;
    size++;
  }

  /** Records where the canonical bytes of the most recently added member end. */
  void endLast(int outputEnd) {
    ends[size - 1] = outputEnd;
  }

  /**
   * Closes the object whose members start at index {@code base}: rejects duplicate names, rewrites
   * the members in the output in UTF-16 code-unit order of their names, and pops them.
   */
  void closeObject(int base, CanonicalOutput out) {
    int count = size - base;
    if (count > 1 && !strictlyAscending(base)) {
      reorder(base, count, out);
    }
    Arrays.fill(names, base, size, null);
    size = base;
  }

  private boolean strictlyAscending(int base) {
    for (int i = base + 1; i < size; i++) {
      int cmp = names[i - 1].compareTo(names[i]);
      if (cmp == 0) {
        throw duplicate(nameOffsets[i]);
      }
      if (cmp > 0) {
        return false;
      }
    }
    return true;
  }

  private void reorder(int base, int count, CanonicalOutput out) {
    Integer[] ord = new Integer[count];
    for (int i = 0; i < count; i++) {
      ord[i] = base + i;
    }
    Arrays.sort(ord, byName);
    for (int i = 1; i < count; i++) {
      if (names[ord[i - 1]].equals(names[ord[i]])) {
        throw duplicate(Math.max(nameOffsets[ord[i - 1]], nameOffsets[ord[i]]));
      }
    }
    int regionStart = starts[base];
    int regionLength = ends[size - 1] - regionStart;
    if (scratch.length < regionLength) {
      scratch = new byte[Math.max(regionLength, scratch.length * 2)];
    }
    byte[] buf = out.buffer();
    System.arraycopy(buf, regionStart, scratch, 0, regionLength);
    int p = regionStart;
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        buf[p++] = ',';
      }
      int m = ord[i];
      int memberLength = ends[m] - starts[m];
      System.arraycopy(scratch, starts[m] - regionStart, buf, p, memberLength);
      p += memberLength;
    }
  }

  private static MalformedJsonException duplicate(int offset) {
    return MalformedJsonException.at(offset, "the object contains a duplicate property name");
  }
}
