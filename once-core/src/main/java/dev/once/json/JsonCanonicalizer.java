package dev.once.json;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Canonicalizes JSON text according to RFC 8785, the JSON Canonicalization Scheme (JCS).
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>Input is parsed strictly per RFC 8259 in a single pass: invalid UTF-8, a byte order mark,
 *       trailing data or commas, unescaped control characters, invalid or lone-surrogate escapes,
 *       non-JSON numbers, numbers that overflow a double and duplicate property names (compared
 *       after unescaping) are all rejected with {@link MalformedJsonException}.
 *   <li>Arrays and objects may be nested at most {@link #maxDepth()} levels; deeper input is
 *       rejected with {@link JsonTooDeepException}. Parsing is iterative, so no input can exhaust
 *       the Java stack.
 *   <li>Output is the RFC 8785 form: no whitespace, object members sorted by the UTF-16 code units
 *       of their names, minimal string escaping, numbers serialised as by ECMAScript (see {@link
 *       EcmaScriptNumbers}). Inputs that differ only in whitespace, member order or escape and
 *       number spelling therefore yield identical bytes, and canonicalizing canonical output
 *       returns it unchanged.
 * </ul>
 *
 * <p>Instances are immutable and thread-safe; one instance may be shared by all threads.
 */
public final class JsonCanonicalizer {
  /** The maximum nesting depth used by {@link #create()}. */
  public static final int DEFAULT_MAX_DEPTH = 64;

  private static final JsonCanonicalizer DEFAULT = new JsonCanonicalizer(DEFAULT_MAX_DEPTH);

  private final int maxDepth;

  private JsonCanonicalizer(int maxDepth) {
    this.maxDepth = maxDepth;
  }

  /** Returns a canonicalizer that accepts at most {@value #DEFAULT_MAX_DEPTH} levels of nesting. */
  public static JsonCanonicalizer create() {
    return DEFAULT;
  }

  /**
   * Returns a canonicalizer that accepts at most {@code maxDepth} levels of nested arrays and
   * objects (a top-level scalar has depth 0, {@code []} has depth 1).
   *
   * @throws IllegalArgumentException if {@code maxDepth} is less than 1
   */
  public static JsonCanonicalizer withMaxDepth(int maxDepth) {
    if (maxDepth < 1) {
      throw new IllegalArgumentException("maxDepth must be at least 1 but was " + maxDepth);
    }
    return maxDepth == DEFAULT_MAX_DEPTH ? DEFAULT : new JsonCanonicalizer(maxDepth);
  }

  /** Returns the maximum number of nested arrays and objects this canonicalizer accepts. */
  public int maxDepth() {
    return maxDepth;
  }

  /**
   * Returns the RFC 8785 canonical form of a UTF-8 encoded JSON text. The argument is not modified.
   *
   * @throws MalformedJsonException if the input is not strict JSON or cannot be canonicalized
   * @throws NullPointerException if {@code utf8Json} is null
   */
  public byte[] canonicalize(byte[] utf8Json) {
    Objects.requireNonNull(utf8Json, "utf8Json");
    return new JsonParser(utf8Json, maxDepth).run();
  }

  /**
   * Returns the RFC 8785 canonical form of a JSON text given as a string. Equivalent to encoding
   * the string as UTF-8, calling {@link #canonicalize(byte[])} and decoding the result; offsets in
   * exceptions refer to that UTF-8 encoding.
   *
   * @throws MalformedJsonException if the input is not strict JSON, cannot be canonicalized, or
   *     contains an unpaired surrogate {@code char}
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
    return "JsonCanonicalizer[maxDepth=" + maxDepth + "]";
  }
}
