package dev.once.shop.clients;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The generated admin token's file: read if it exists, else created with a new token. On POSIX file
 * systems the file is {@code rw-------} and a folder created for it {@code rwx------}; both get
 * these permissions as they are created, and the file appears (hard link of a fully written,
 * flushed temporary file) only complete, so no other user and no concurrent start ever sees it
 * readable or half-written. Of two starts that race, one creates the file and both use it.
 *
 * <p>A file that other users may read or write is refused rather than used (like OpenSSH refuses
 * such a key file): anyone could have read the token, or put their own there. Errors name the file
 * and the remedy, never its content. On file systems without POSIX permissions (Windows) the file
 * gets the folder's inherited access rules, which under the user's profile are the user's only.
 */
final class AdminTokenFile {
  private static final Set<PosixFilePermission> OTHER_USERS =
      Set.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private AdminTokenFile() {}

  /**
   * The token in {@code file}, or a new one from {@code generator} written there.
   *
   * @param valid whether a token read from the file is acceptable
   * @throws IllegalStateException if the file cannot be read or written, is open to other users or
   *     holds no valid token
   */
  static Loaded readOrCreate(Path file, Supplier<String> generator, Predicate<String> valid) {
    Path path = file.toAbsolutePath().normalize();
    try {
      if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        return new Loaded(read(path, valid), path, false);
      }
      String token = generator.get();
      if (create(path, token)) {
        return new Loaded(token, path, true);
      }
      return new Loaded(read(path, valid), path, false);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not read or create the admin token file "
              + path
              + " ("
              + e.getClass().getSimpleName()
              + "); set "
              + AdminToken.PROPERTY
              + " (SHOP_ADMIN_TOKEN), or "
              + AdminToken.FILE_PROPERTY
              + " to a file the shop may write.",
          e);
    }
  }

  /**
   * Writes {@code token} to a new {@code path}: {@code false} if another start created the file
   * first, whose token is then the one to use.
   */
  private static boolean create(Path path, String token) throws IOException {
    Path folder = path.getParent();
    boolean posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (!Files.isDirectory(folder)) {
      if (posix) {
        Files.createDirectories(folder, only("rwx------"));
      } else {
        Files.createDirectories(folder);
      }
    }
    Path temporary =
        posix
            ? Files.createTempFile(folder, ".admin-token-", ".tmp", only("rw-------"))
            : Files.createTempFile(folder, ".admin-token-", ".tmp");
    try {
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.UTF_8)));
        channel.force(true);
      }
      // A link, unlike a rename, fails if the name exists: a concurrent start's file is kept.
      Files.createLink(path, temporary);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static String read(Path path, Predicate<String> valid) throws IOException {
    if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(path, "is not a regular file");
    }
    if (path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Set<PosixFilePermission> permissions =
          Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
      if (permissions.stream().anyMatch(OTHER_USERS::contains)) {
        throw refused(
            path,
            "may be read or written by other users ("
                + PosixFilePermissions.toString(permissions)
                + "); run 'chmod 600 "
                + path
                + "' if only you ever had access to it");
      }
    }
    String token = Files.readString(path, StandardCharsets.UTF_8).strip();
    if (!valid.test(token)) {
      throw refused(path, "does not hold a valid admin token");
    }
    return token;
  }

  private static IllegalStateException refused(Path path, String why) {
    return new IllegalStateException(
        "The admin token file "
            + path
            + " "
            + why
            + ". Delete it to have a new token generated, or set "
            + AdminToken.PROPERTY
            + " (SHOP_ADMIN_TOKEN).");
  }

  private static FileAttribute<Set<PosixFilePermission>> only(String permissions) {
    return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions));
  }

  /**
   * A token from the file.
   *
   * @param token the token
   * @param file the file's absolute path
   * @param created whether this start generated it
   */
  record Loaded(String token, Path file, boolean created) {}
}
