package dev.once.json;

/**
 * Thrown when arrays and objects are nested more deeply than the canonicalizer's {@linkplain
 * JsonCanonicalizer#maxDepth() maximum depth}. The input is rejected before any deeper level is
 * processed, so hostile nesting costs neither stack nor memory. Instances are immutable.
 */
public final class JsonTooDeepException extends MalformedJsonException {
  private static final long serialVersionUID = 1L;

  private final int maxDepth;

  JsonTooDeepException(long offset, int maxDepth) {
    super(
        "Malformed JSON at byte offset "
            + offset
            + ": arrays and objects are nested deeper than the maximum depth of "
            + maxDepth
            + ".",
        offset);
    this.maxDepth = maxDepth;
  }

  /** Returns the maximum nesting depth that was exceeded. */
  public int maxDepth() {
    return maxDepth;
  }
}
