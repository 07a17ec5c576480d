package dev.once.json;

/**
 * Where the parts of one strict RFC 8259 number literal lie in the input: {@code -? int (. frac)?
 * ([eE] [+-]? exp)?}. Created only by {@link #scan}, so every instance describes a valid literal.
 * Immutable.
 *
 * @param start index of the literal's first byte (a '-' or a digit)
 * @param intStart index of the first digit of the integer part
 * @param intEnd index just after the integer part (the '.', 'e', 'E' or the end)
 * @param fracEnd index just after the fraction digits; equals {@code intEnd} without a fraction
 * @param end index just after the literal; equals {@code fracEnd} without an exponent
 */
record NumberLiteral(int start, int intStart, int intEnd, int fracEnd, int end) {

  /**
   * Checks the literal that starts at {@code start} (a '-' or a digit) against the RFC 8259 grammar
   * and returns its parts.
   *
   * @throws MalformedJsonException if it is not a valid number literal
   */
  static NumberLiteral scan(byte[] in, int start, int end) {
    int pos = start;
    if (in[pos] == '-' && (++pos == end || !isDigit(in[pos]))) {
      throw MalformedJsonException.at(pos, "a minus sign must be followed by a digit");
    }
    int intStart = pos;
    if (in[pos] == '0') {
      pos++;
      if (pos < end && isDigit(in[pos])) {
        throw MalformedJsonException.at(intStart, "a number must not have leading zeros");
      }
    } else {
      pos = skipDigits(in, pos, end);
    }
    int intEnd = pos;
    if (pos < end && in[pos] == '.') {
      if (++pos == end || !isDigit(in[pos])) {
        throw MalformedJsonException.at(pos, "a decimal point must be followed by a digit");
      }
      pos = skipDigits(in, pos, end);
    }
    int fracEnd = pos;
    if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
      pos++;
      if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
        pos++;
      }
      if (pos == end || !isDigit(in[pos])) {
        throw MalformedJsonException.at(pos, "an exponent must contain at least one digit");
      }
      pos = skipDigits(in, pos, end);
    }
    return new NumberLiteral(start, intStart, intEnd, fracEnd, pos);
  }

  boolean negative() {
    return intStart > start;
  }

  boolean hasFraction() {
    return fracEnd > intEnd;
  }

  boolean hasExponent() {
    return end > fracEnd;
  }

  /** Index of the first fraction digit; only meaningful if {@link #hasFraction()}. */
  int fracStart() {
    return intEnd + 1;
  }

  /** Whether the exponent is negative; false without an exponent. */
  boolean negativeExponent(byte[] in) {
    return hasExponent() && in[fracEnd + 1] == '-';
  }

  /** Index of the first exponent digit; only meaningful if {@link #hasExponent()}. */
  int expStart(byte[] in) {
    byte sign = in[fracEnd + 1];
    return sign == '+' || sign == '-' ? fracEnd + 2 : fracEnd + 1;
  }

  static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private static int skipDigits(byte[] in, int pos, int end) {
    while (pos < end && isDigit(in[pos])) {
      pos++;
    }
    return pos;
  }
}
