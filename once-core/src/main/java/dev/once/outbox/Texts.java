package dev.once.outbox;

/** The checks of an operator's text arguments (types, names, reasons), with one wording. */
final class Texts {
  private Texts() {}

  /**
   * {@code value}, or {@code null} if it is blank and {@code optional}.
   *
   * @throws IllegalArgumentException if it is blank and required, or longer than {@code max}
   */
  static String checked(String name, String value, int max, boolean optional) {
    if (value == null || value.isBlank()) {
      if (optional) {
        return null;
      }
      throw new IllegalArgumentException(name + " must not be blank");
    }
    if (value.length() > max) {
      throw new IllegalArgumentException(
          name + " must be at most " + max + " characters, but had " + value.length());
    }
    return value;
  }
}
