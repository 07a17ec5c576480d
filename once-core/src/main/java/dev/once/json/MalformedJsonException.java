package dev.once.json;

import dev.once.OnceException;

/**
 * Thrown when input is not strict RFC 8259 JSON (for example a duplicate property name), or when it
 * cannot be canonicalized: in {@link JsonCanonicalizer.NumberMode#RFC_8785}, a number outside the
 * range of an IEEE-754 double.
 *
 * <p>The message is a single sentence that names the problem and its byte offset. It never quotes
 * the payload, so it is safe to log. Instances are immutable.
 */
public class MalformedJsonException extends OnceException {
  private static final long serialVersionUID = 1L;

  private final long offset;

  MalformedJsonException(String message, long offset) {
    super(message);
    this.offset = offset;
  }

  /** Creates an exception whose message reads "Malformed JSON at byte offset N: problem." */
  static MalformedJsonException at(long offset, String problem) {
    return new MalformedJsonException(
        "Malformed JSON at byte offset " + offset + ": " + problem + ".", offset);
  }

  /**
   * Returns the zero-based offset, in bytes of the UTF-8 input, at which the problem was found. For
   * {@link JsonCanonicalizer#canonicalize(String)} it is the offset in the UTF-8 encoding of the
   * string.
   */
  public long offset() {
    return offset;
  }
}
