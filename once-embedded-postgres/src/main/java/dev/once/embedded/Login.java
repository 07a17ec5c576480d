package dev.once.embedded;

/**
 * A user name and its password; {@link #toString()} never shows the password.
 *
 * @param user the role's name
 * @param password its password, from an owner-only file of the data directory
 */
public record Login(String user, String password) {
  @Override
  public String toString() {
    return "Login[" + user + "]";
  }
}
