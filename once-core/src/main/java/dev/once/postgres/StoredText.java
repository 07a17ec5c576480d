package dev.once.postgres;

/**
 * Makes any Java string storable in a PostgreSQL {@code text} column in UTF-8: a handler's failure
 * reason may hold what no such column takes (a NUL, which PostgreSQL refuses with SQLSTATE {@code
 * 22021}; an unpaired surrogate, which is no Unicode character and has no UTF-8 form), and a write
 * that fails for that would fail on every retry the same way. Each NUL and each unpaired surrogate
 * becomes U+FFFD (the replacement character), and a text longer than its limit is cut at a
 * character boundary, never inside a surrogate pair, ending in "…". Everything else is kept as it
 * is. Stateless.
 */
final class StoredText {
  private static final char REPLACEMENT = '\uFFFD';

  private StoredText() {}

  /**
   * {@code text} as a {@code text} column can store it, at most {@code maxLength} UTF-16 units
   * long; {@code null} stays {@code null}.
   */
  static String of(String text, int maxLength) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), maxLength));
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1));
      int width = pair ? 2 : 1;
      boolean last = i + width == text.length();
      // Room for the character, and for the ellipsis unless nothing follows it.
      if (out.length() + width > maxLength - (last ? 0 : 1)) {
        return out.append('…').toString();
      }
      if (pair) {
        out.append(c).append(text.charAt(i + 1));
      } else if (c == '\0' || Character.isSurrogate(c)) {
        out.append(REPLACEMENT);
      } else {
        out.append(c);
      }
      i += width;
    }
    return out.toString();
  }
}
