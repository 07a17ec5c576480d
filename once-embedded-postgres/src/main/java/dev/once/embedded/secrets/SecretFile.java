package dev.once.embedded.secrets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A generated secret (a database password, the admin token) kept in a file that only the current OS
 * user can read, created on first use and read on every later one.
 *
 * <ul>
 *   <li>A new file has permissions {@code rw-------} from the moment it exists (never written, then
 *       restricted), and appears under its name only with its whole content, flushed: it is written
 *       under a temporary name and hard-linked into place, which fails if the name is taken. Two
 *       processes creating it at once therefore agree on one secret. A missing folder is created
 *       {@code rwx------}.
 *   <li>An existing file is used only if it is a regular file (not a symbolic link) that belongs to
 *       the current user, grants group and others nothing, and holds a valid secret. Otherwise
 *       {@link IllegalStateException} says what is wrong and what to do; the file is never changed.
 *   <li>Messages name the file, never its content.
 * </ul>
 *
 * Needs a POSIX file system ({@link OwnerOnly}).
 */
public final class SecretFile {
  private SecretFile() {}

  /**
   * What was read or created.
   *
   * @param secret the secret
   * @param file the file's absolute, normalised path
   * @param created whether this call generated it
   */
  public record Loaded(String secret, Path file, boolean created) {
    @Override
    public String toString() {
      return "Loaded[" + file + ", created=" + created + "]"; // never the secret
    }
  }

  /**
   * Reads the secret in {@code file}, creating the file with a new secret if it does not exist.
   *
   * @param file the file
   * @param generator makes a new secret, which must satisfy {@code valid}
   * @param valid whether a secret read from the file is acceptable
   * @param what what the secret is ("password", "admin token"), named in messages
   * @param remedy what to do about a refused file, appended to the message
   * @return the secret and where it is
   * @throws IllegalStateException if the file cannot be trusted, read or created
   */
  public static Loaded readOrCreate(
      Path file, Supplier<String> generator, Predicate<String> valid, String what, String remedy) {
    Path path = file.toAbsolutePath().normalize();
    try {
      Optional<String> existing = read(path, valid, what, remedy);
      if (existing.isPresent()) {
        return new Loaded(existing.get(), path, false);
      }
      Files.createDirectories(path.getParent(), OwnerOnly.DIRECTORY);
      String secret = generator.get();
      // A name no other process or thread can pick: a clock reading is not unique across threads.
      Path temporary = path.resolveSibling("." + path.getFileName() + "." + UUID.randomUUID());
      OwnerOnly.writeNew(temporary, secret + "\n");
      try {
        Files.createLink(path, temporary);
        return new Loaded(secret, path, true);
      } catch (FileAlreadyExistsException e) {
        // Another process was first: use its secret.
        return new Loaded(read(path, valid, what, remedy).orElseThrow(() -> e), path, false);
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot read or create the " + what + " file " + path + " (" + e + "). " + remedy, e);
    }
  }

  private static Optional<String> read(
      Path file, Predicate<String> valid, String what, String remedy) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    if (!attributes.isRegularFile()) {
      throw refused(file, what, "it is not a regular file", remedy);
    }
    Optional<String> problem = OwnerOnly.problem(file, OwnerOnly.GROUP_OR_OTHERS);
    if (problem.isPresent()) {
      throw refused(file, what, problem.get() + ", so the " + what + " may have leaked", remedy);
    }
    // Checked above without following links; only the owner could swap it since.
    String content = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip();
    if (!valid.test(content)) {
      throw refused(file, what, "it does not hold a generated " + what, remedy);
    }
    return Optional.of(content);
  }

  private static IllegalStateException refused(Path file, String what, String why, String remedy) {
    return new IllegalStateException(
        "Refusing the " + what + " file " + file + ": " + why + ". " + remedy);
  }
}
