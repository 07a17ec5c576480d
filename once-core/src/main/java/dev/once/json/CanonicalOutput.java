package dev.once.json;

import java.util.Arrays;

/** Growable byte buffer that receives canonical JSON. Not thread-safe; one instance per call. */
final class CanonicalOutput {
  private static final int MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;
  private static final byte[] HEX = {
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
  };

  private byte[] buf;
  private int len;

  CanonicalOutput(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  int length() {
    return len;
  }

  /** The backing array; valid up to {@link #length()}. Used to reorder object members in place. */
  byte[] buffer() {
    return buf;
  }

  void write(int b) {
    if (len == buf.length) {
      grow(1);
    }
    buf[len++] = (byte) b;
  }

  void write(byte[] src, int offset, int count) {
    ensure(count);
    System.arraycopy(src, offset, buf, len, count);
    len += count;
  }

  /** Writes a finite double in ECMAScript form. */
  void writeNumber(double value) {
    ensure(EcmaScriptNumbers.MAX_LENGTH);
    len = EcmaScriptNumbers.write(value, buf, len);
  }

  /** Writes one Unicode scalar value as it must appear inside an RFC 8785 string. */
  void writeStringCodePoint(int cp) {
    ensure(6);
    byte[] b = buf;
    int p = len;
    if (cp < 0x80) {
      p = writeAscii(cp, b, p);
    } else if (cp < 0x800) {
      b[p++] = (byte) (0xC0 | cp >>> 6);
      b[p++] = (byte) (0x80 | cp & 0x3F);
    } else if (cp < 0x10000) {
      b[p++] = (byte) (0xE0 | cp >>> 12);
      b[p++] = (byte) (0x80 | cp >>> 6 & 0x3F);
      b[p++] = (byte) (0x80 | cp & 0x3F);
    } else {
      b[p++] = (byte) (0xF0 | cp >>> 18);
      b[p++] = (byte) (0x80 | cp >>> 12 & 0x3F);
      b[p++] = (byte) (0x80 | cp >>> 6 & 0x3F);
      b[p++] = (byte) (0x80 | cp & 0x3F);
    }
    len = p;
  }

  private static int writeAscii(int c, byte[] b, int p) {
    byte escape;
    switch (c) {
      case '"':
        escape = '"';
        break;
      case '\\':
        escape = '\\';
        break;
      case '\b':
        escape = 'b';
        break;
      case '\f':
        escape = 'f';
        break;
      case '\n':
        escape = 'n';
        break;
      case '\r':
        escape = 'r';
        break;
      case '\t':
        escape = 't';
        break;
      default:
        if (c >= 0x20) {
          b[p] = (byte) c;
          return p + 1;
        }
        b[p] = '\\';
        b[p + 1] = 'u';
        b[p + 2] = '0';
        b[p + 3] = '0';
        b[p + 4] = HEX[c >>> 4];
        b[p + 5] = HEX[c & 0xF];
        return p + 6;
    }
    b[p] = '\\';
    b[p + 1] = escape;
    return p + 2;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int count) {
    if (count > buf.length - len) {
      grow(count);
    }
  }

  private void grow(int count) {
    long needed = (long) len + count;
    if (needed > MAX_ARRAY_LENGTH) {
      throw new IllegalArgumentException("The canonical form would exceed the maximum array size.");
    }
    long capacity = Math.min(MAX_ARRAY_LENGTH, Math.max(needed, 2L * buf.length));
    buf = Arrays.copyOf(buf, (int) capacity);
  }
}
