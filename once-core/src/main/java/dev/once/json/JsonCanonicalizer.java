package dev.once.json;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Canonicalizes JSON text by RFC 8785, the JSON Canonicalization Scheme (JCS), with one choice: how
 * numbers are compared ({@link NumberMode}).
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>Input is parsed strictly per RFC 8259 in a single pass: invalid UTF-8, a byte order mark,
 *       trailing data or commas, unescaped control characters, invalid or lone-surrogate escapes,
 *       non-JSON numbers and duplicate property names (compared after unescaping) are all rejected
 *       with {@link MalformedJsonException}; in {@link NumberMode#RFC_8785} so are numbers that
 *       overflow a double.
 *   <li>Arrays and objects may be nested at most {@link #maxDepth()} levels; deeper input is
 *       rejected with {@link JsonTooDeepException}. Parsing is iterative, so no input can exhaust
 *       the Java stack.
 *   <li>Output has no whitespace, object members sorted by the UTF-16 code units of their names and
 *       minimal string escaping, as RFC 8785 prescribes. Numbers are written as {@link
 *       #numberMode()} says. Inputs that differ only in whitespace, member order, escape spelling
 *       or number spelling therefore yield identical bytes, and canonicalizing canonical output
 *       returns it unchanged.
 *   <li>In {@link NumberMode#EXACT} (the default), two documents whose numbers differ in value
 *       never yield the same bytes. The time and memory a number takes are linear in its length,
 *       whatever its exponent.
 * </ul>
 *
 * <p>Instances are immutable and thread-safe; one instance may be shared by all threads.
 */
public final class JsonCanonicalizer {
  /** The maximum nesting depth used by {@link #create()}. */
  public static final int DEFAULT_MAX_DEPTH = 64;

  private static final JsonCanonicalizer DEFAULT =
      new JsonCanonicalizer(DEFAULT_MAX_DEPTH, NumberMode.EXACT);

  /** How a canonicalizer reads and writes numbers. */
  public enum NumberMode {
    /**
     * Numbers keep their exact decimal value: the sign, the significant digits and the decimal
     * exponent, laid out as ECMAScript's Number::toString lays out a double's digits ({@code 100},
     * {@code 0.25}, {@code 1e+21}, {@code 1e-7}). Every literal that is the shortest round-trip
     * form of a double is written exactly as RFC 8785 writes it; any other literal keeps its digits
     * where RFC 8785 would round it to a double ({@code 9007199254740993}, {@code
     * 0.30000000000000001}, {@code 333333333.33333329}), and numbers beyond the range of a double
     * ({@code 1e400}, {@code 1e-400}) are accepted and kept. Zero in any spelling, {@code -0}
     * included, is {@code 0}, as in RFC 8785.
     */
    EXACT,
    /**
     * Numbers are read as the nearest IEEE-754 double and written as ECMAScript writes that double,
     * which is the number serialisation of RFC 8785 section 3.2.2.3: output is RFC 8785 byte for
     * byte, but different values that round to the same double ({@code 9007199254740993} and {@code
     * 9007199254740992}) share one form, and numbers that overflow a double are rejected.
     */
    RFC_8785
  }

  private final int maxDepth;
  private final NumberMode numberMode;

  private JsonCanonicalizer(int maxDepth, NumberMode numberMode) {
    this.maxDepth = maxDepth;
    this.numberMode = numberMode;
  }

  /**
   * Returns a canonicalizer that accepts at most {@value #DEFAULT_MAX_DEPTH} levels of nesting and
   * keeps numbers exact ({@link NumberMode#EXACT}).
   */
  public static JsonCanonicalizer create() {
    return DEFAULT;
  }

  /**
   * Returns a canonicalizer that accepts at most {@code maxDepth} levels of nested arrays and
   * objects (a top-level scalar has depth 0, {@code []} has depth 1) and keeps numbers exact
   * ({@link NumberMode#EXACT}).
   *
   * @throws IllegalArgumentException if {@code maxDepth} is less than 1
   */
  public static JsonCanonicalizer withMaxDepth(int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1 but was " + maxDepth);
    }
    return of(maxDepth, NumberMode.EXACT);
  }

  /**
   * Returns a canonicalizer with this one's depth limit that treats numbers as {@code mode} says.
   *
   * @throws NullPointerException if {@code mode} is null
   */
  public JsonCanonicalizer withNumberMode(NumberMode mode) {
    Objects.requireNonNull(mode, "mode");
    return mode == numberMode ? this : of(maxDepth, mode);
  }

  private static JsonCanonicalizer of(int maxDepth, NumberMode mode) {
    return maxDepth == DEFAULT_MAX_DEPTH && mode == NumberMode.EXACT
        ? DEFAULT
        : new JsonCanonicalizer(maxDepth, mode);
  }

  /** Returns the maximum number of nested arrays and objects this canonicalizer accepts. */
  public int maxDepth() {
    return maxDepth;
  }

  /** Returns how this canonicalizer treats numbers. */
  public NumberMode numberMode() {
    return numberMode;
  }

  /**
   * Returns the canonical form of a UTF-8 encoded JSON text. The argument is not modified.
   *
   * @throws MalformedJsonException if the input is not strict JSON or, in {@link
   *     NumberMode#RFC_8785}, holds a number outside the range of a double
   * @throws NullPointerException if {@code utf8Json} is null
   */
  public byte[] canonicalize(byte[] utf8Json) {
    Objects.requireNonNull(utf8Json, "utf8Json");
    return new JsonParser(utf8Json, maxDepth, numberMode == NumberMode.EXACT).run();
  }

  /**
   * Returns the canonical form of a JSON text given as a string. Equivalent to encoding the string
   * as UTF-8, calling {@link #canonicalize(byte[])} and decoding the result; offsets in exceptions
   * refer to that UTF-8 encoding.
   *
   * @throws MalformedJsonException if the input is not strict JSON, cannot be canonicalized (see
   *     {@link #canonicalize(byte[])}), or contains an unpaired surrogate {@code char}
   * @throws NullPointerException if {@code json} is null
   */
  public String canonicalize(String json) {
    Objects.requireNonNull(json, "json");
    requireWellFormedUtf16(json);
    byte[] canonical = canonicalize(json.getBytes(StandardCharsets.UTF_8));
    return new String(canonical, StandardCharsets.UTF_8);
  }

  /** Rejects unpaired surrogates, which {@link String#getBytes} would silently replace with '?'. */
  private static void requireWellFormedUtf16(String json) {
    long byteOffset = 0;
    int length = json.length();
    for (int i = 0; i < length; i++) {
      char c = json.charAt(i);
      if (c < 0x80) {
        byteOffset++;
      } else if (c < 0x800) {
        byteOffset += 2;
      } else if (!Character.isSurrogate(c)) {
        byteOffset += 3;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(json.charAt(i + 1))) {
        byteOffset += 4;
        i++;
      } else {
        throw MalformedJsonException.at(
            byteOffset, "the string contains an unpaired surrogate character");
      }
    }
  }

  @Override
  public String toString() {
    return "JsonCanonicalizer[maxDepth=" + maxDepth + ", numberMode=" + numberMode + "]";
  }
}
