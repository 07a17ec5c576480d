package dev.once.shop.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A generated password kept in a file that only the current OS user can read, created on first use
 * and read on every later one.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>A new password is 256 bits from {@link SecureRandom}, written as 43 URL-safe Base64
 *       characters ({@code A-Z a-z 0-9 - _}): it needs no quoting in SQL, URLs or shells.
 *   <li>A new file has permissions {@code rw-------} from the moment it exists (never written, then
 *       restricted), and appears under its name only with its whole content: it is written under a
 *       temporary name and hard-linked into place, which fails if the name is taken. Two processes
 *       creating it at once therefore agree on one password.
 *   <li>An existing file is used only if it is a regular file (not a symbolic link) that belongs to
 *       the current user, grants group and others nothing, and holds such a password (at least 43
 *       of those characters). Otherwise {@link IllegalStateException} says what is wrong and what
 *       to do; the file is never changed.
 * </ul>
 *
 * <p>The folder must exist; keeping it private is the caller's job.
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
    try {
      Optional<String> existing = read(file);
      if (existing.isPresent()) {
        return existing.get();
      }
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      Path temporary = file.resolveSibling(file.getFileName() + "." + System.nanoTime() + ".tmp");
      try {
        OwnerOnly.writeNew(temporary, password + "\n");
        Files.createLink(file, temporary);
        return password;
      } catch (FileAlreadyExistsException e) {
        return read(file).orElseThrow(() -> e); // another process was first: use its password
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot read or create the password file " + file + ": " + e, e);
    }
  }

  private static Optional<String> read(Path file) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    if (!attributes.isRegularFile()) {
      throw refused(file, "it is not a regular file");
    }
    Optional<String> problem = OwnerOnly.problem(file, OwnerOnly.GROUP_OR_OTHERS);
    if (problem.isPresent()) {
      throw refused(file, problem.get() + ", so the password may have leaked");
    }
    // Checked above without following links; only the owner could swap it since.
    String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).strip();
    if (!PASSWORD.matcher(content).matches()) {
      throw refused(
          file,
          "it does not hold a generated password (at least "
              + MIN_LENGTH
              + " characters of A-Z a-z 0-9 - _ on one line)");
    }
    return Optional.of(content);
  }

  private static IllegalStateException refused(Path file, String why) {
    return new IllegalStateException(
        "Refusing the password file "
            + file
            + ": "
            + why
            + ". Delete it to have a new password generated.");
  }
}
