package dev.once.shop.database;

import dev.once.shop.secrets.SecretFile;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * A generated password kept in a file that only the current OS user can read ({@link SecretFile}):
 * 256 bits from {@link SecureRandom}, written as 43 URL-safe Base64 characters ({@code A-Z a-z 0-9
 * - _}), so it needs no quoting in SQL, URLs or shells.
 */
final class PasswordFile {

  /** 256 bits in unpadded Base64. */
  private static final int MIN_LENGTH = 43;

  private static final Pattern PASSWORD = Pattern.compile("[A-Za-z0-9_-]{" + MIN_LENGTH + ",}");

  private static final SecureRandom RANDOM = new SecureRandom();

  private PasswordFile() {}

  /**
   * Reads the password in {@code file}, creating the file with a new password if it does not exist.
   *
   * @param file the password file
   * @return the password
   * @throws IllegalStateException if the file cannot be trusted, read or created
   */
  static String readOrCreate(Path file) {
    return SecretFile.readOrCreate(
            file,
            PasswordFile::generate,
            PASSWORD.asMatchPredicate(),
            "password",
            "Delete it to have a new password generated.")
        .secret();
  }

  private static String generate() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
