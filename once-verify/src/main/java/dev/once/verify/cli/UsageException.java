package dev.once.verify.cli;

/** The command line is wrong: the message says why; the usage goes to stderr and the exit is 2. */
public final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
