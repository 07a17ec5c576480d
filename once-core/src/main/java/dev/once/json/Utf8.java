package dev.once.json;

import java.nio.charset.StandardCharsets;

/** Strict UTF-8 helpers for {@link JsonParser}. Stateless and thread-safe. */
final class Utf8 {
  private Utf8() {}

  /**
   * Validates the multi-byte sequence whose lead byte is at {@code at} (Unicode table 3-7: no
   * overlongs, no surrogates, nothing above U+10FFFF) and returns the index just after it.
   */
  static int skipSequence(byte[] in, int at, int end) {
    int lead = in[at] & 0xFF;
    int continuations;
    int min = 0x80;
    int max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      continuations = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      continuations = 2;
      if (lead == 0xE0) {
        min = 0xA0;
      } else if (lead == 0xED) {
        max = 0x9F;
      }
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      continuations = 3;
      if (lead == 0xF0) {
        min = 0x90;
      } else if (lead == 0xF4) {
        max = 0x8F;
      }
    } else if (lead < 0xC0) {
      throw MalformedJsonException.at(at, "the string contains a stray UTF-8 continuation byte");
    } else if (lead < 0xC2) {
      throw MalformedJsonException.at(at, "the string contains an overlong UTF-8 encoding");
    } else {
      throw MalformedJsonException.at(at, "the string contains a byte that is not valid UTF-8");
    }
    if (at + 1 >= end || (in[at + 1] & 0xC0) != 0x80) {
      throw truncated(at);
    }
    int second = in[at + 1] & 0xFF;
    if (second < min) {
      throw MalformedJsonException.at(at, "the string contains an overlong UTF-8 encoding");
    }
    if (second > max) {
      throw MalformedJsonException.at(
          at,
          lead == 0xED
              ? "the string contains a UTF-8 encoded surrogate"
              : "the string contains a code point above U+10FFFF");
    }
    for (int i = 2; i <= continuations; i++) {
      if (at + i >= end || (in[at + i] & 0xC0) != 0x80) {
        throw truncated(at);
      }
    }
    return at + continuations + 1;
  }

  private static MalformedJsonException truncated(int at) {
    return MalformedJsonException.at(at, "the string contains a truncated UTF-8 sequence");
  }

  /**
   * Decodes the canonical content of a string (between its quotes), whose only escapes are those
   * RFC 8785 emits: {@code \" \\ \b \f \n \r \t} and {@code \}{@code u00xx}.
   */
  static String unescapeCanonical(byte[] buf, int from, int to) {
    byte[] raw = new byte[to - from];
    int n = 0;
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      if (b != '\\') {
        raw[n++] = b;
        continue;
      }
      byte e = buf[++i];
      switch (e) {
        case 'b':
          raw[n++] = '\b';
          break;
        case 'f':
          raw[n++] = '\f';
          break;
        case 'n':
          raw[n++] = '\n';
          break;
        case 'r':
          raw[n++] = '\r';
          break;
        case 't':
          raw[n++] = '\t';
          break;
        case 'u':
          raw[n++] =
              (byte) (Character.digit(buf[i + 3], 16) << 4 | Character.digit(buf[i + 4], 16));
          i += 4;
          break;
        default: // '"' or '\\'
          raw[n++] = e;
      }
    }
    return new String(raw, 0, n, StandardCharsets.UTF_8);
  }
}
