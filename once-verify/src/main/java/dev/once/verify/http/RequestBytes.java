package dev.once.verify.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable buffer that a request is written into: appending ASCII text, bytes and decimal numbers
 * allocates nothing once the buffer has grown to the largest request. Not thread-safe.
 */
public final class RequestBytes {
  private static final byte[] CRLF = {'\r', '\n'};
  private final byte[] digits = new byte[20];
  private byte[] bytes = new byte[1024];
  private int length;

  /** Empties the buffer, keeping its capacity. */
  public RequestBytes reset() {
    length = 0;
    return this;
  }

  public RequestBytes append(byte[] b) {
    return append(b, 0, b.length);
  }

  public RequestBytes append(byte[] b, int offset, int count) {
    ensure(count);
    System.arraycopy(b, offset, bytes, length, count);
    length += count;
    return this;
  }

  /** Appends each char as one byte; for ASCII text only (request lines, header names, ids). */
  public RequestBytes appendAscii(CharSequence text) {
    int n = text.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[length++] = (byte) text.charAt(i);
    }
    return this;
  }

  /** Appends {@code value} in decimal. */
  public RequestBytes appendDecimal(long value) {
    if (value == Long.MIN_VALUE) {
      return appendAscii(Long.toString(value));
    }
    if (value < 0) {
      appendAscii("-");
      value = -value;
    }
    int i = digits.length;
    do {
      digits[--i] = (byte) ('0' + (value % 10));
      value /= 10;
    } while (value != 0);
    return append(digits, i, digits.length - i);
  }

  /** {@code Content-Length}, the blank line that ends the head, and {@code body}. */
  public RequestBytes body(byte[] body) {
    return appendAscii("Content-Length: ").appendDecimal(body.length).crlf().crlf().append(body);
  }

  public RequestBytes crlf() {
    return append(CRLF);
  }

  /** The backing array; valid up to {@link #length()} until the next append. */
  public byte[] array() {
    return bytes;
  }

  public int length() {
    return length;
  }

  /** A copy of the content, for tests and one-off requests. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  @Override
  public String toString() {
    return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }
}
