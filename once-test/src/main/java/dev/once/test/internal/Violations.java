package dev.once.test.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The violations one assertion found: each a stable short name in brackets and a sentence. An
 * assertion runs all its checks, then {@link #throwIfAny()} fails once listing them all, one per
 * line. Not thread-safe: one per assertion, on the test's thread.
 */
public final class Violations {
  private static final int MAX_TEXT = 200;
  private final String title;
  private final List<String> lines = new ArrayList<>();
  private String hint;
  private Throwable firstCause;

  /**
   * Violations of the assertion that {@code title} names, e.g. {@code Consumer x is not
   * idempotent}.
   */
  public Violations(String title) {
    this.title = title;
  }

  /** Adds violation {@code name} (without brackets), described by {@code words}. */
  public void add(String name, String words) {
    lines.add("[" + name + "] " + words);
  }

  /** Adds violation {@code name}: {@code what} threw {@code thrown}. */
  public void threw(String name, String what, Throwable thrown) {
    add(name, what + " threw " + describe(thrown));
    if (firstCause == null) {
      firstCause = thrown;
    }
  }

  /**
   * Adds a last line, {@code hint:} and {@code words}, after the violations: the usual cause of
   * what was found. Not a violation of its own: alone, it fails nothing.
   */
  public void hint(String words) {
    this.hint = words;
  }

  /** Whether none was found. */
  public boolean isEmpty() {
    return lines.isEmpty();
  }

  /**
   * Fails with one {@link AssertionError} listing every violation, if there is one; the first
   * exception a check saw is its cause.
   */
  public void throwIfAny() {
    if (lines.isEmpty()) {
      return;
    }
    StringBuilder message = new StringBuilder(title).append(':');
    for (String line : lines) {
      message.append("\n - ").append(line);
    }
    if (hint != null) {
      message.append("\n hint: ").append(hint);
    }
    throw new AssertionError(message.toString(), firstCause);
  }

  /** An exception in words: its class and message, the message cut to 200 characters. */
  public static String describe(Throwable thrown) {
    String text = thrown.getMessage();
    if (text == null) {
      return thrown.getClass().getName();
    }
    if (text.length() > MAX_TEXT) {
      text = text.substring(0, MAX_TEXT) + "...";
    }
    return thrown.getClass().getName() + ": " + text;
  }
}
