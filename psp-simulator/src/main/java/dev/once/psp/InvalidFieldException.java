package dev.once.psp;

/**
 * A value that breaks a documented rule, with the name of the field it came from; the HTTP API
 * turns it into a 422 {@code invalid-request} problem whose {@code field} member is {@link
 * #field()}.
 */
public final class InvalidFieldException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String field;

  public InvalidFieldException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The name of the offending field, as spelt in the JSON body (or the CLI setting). */
  public String field() {
    return field;
  }
}
