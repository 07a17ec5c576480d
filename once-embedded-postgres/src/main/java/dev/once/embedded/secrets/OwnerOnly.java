package dev.once.embedded.secrets;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.logging.Log;

/**
 * Files and folders that only the current OS user may use: what keeps the embedded server's data,
 * log and binaries, and generated secrets (passwords, a service's admin token), away from other
 * local users. Needs a POSIX file system (Linux, macOS); anything else fails with a message that
 * says so.
 */
public final class OwnerOnly {

  /** {@code rwx------}, for folders this package creates. */
  public static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  /** {@code rw-------}, for files this package creates. */
  public static final FileAttribute<Set<PosixFilePermission>> FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /** Every permission bit of group and others. */
  public static final Set<PosixFilePermission> GROUP_OR_OTHERS =
      EnumSet.complementOf(
          EnumSet.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));

  /** Write permission of group or others. */
  public static final Set<PosixFilePermission> WRITABLE_BY_OTHERS =
      EnumSet.of(PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

  private OwnerOnly() {}

  /** The real user id of this process. */
  public static long currentUid() {
    return new UnixSystem().getUid();
  }

  /**
   * Why the path (not followed if it is a symbolic link) is not safe to trust: it belongs to
   * another user, or grants group or others one of the {@code forbidden} permissions.
   *
   * @return the reason, or empty if the path is safe
   * @throws IOException if it cannot be inspected (it does not exist, for example)
   */
  public static Optional<String> problem(Path path, Set<PosixFilePermission> forbidden)
      throws IOException {
    long owner;
    PosixFileAttributes attributes;
    try {
      owner =
          ((Number) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
      attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "Generated secrets, the embedded PostgreSQL's data and its binaries are kept private"
              + " with POSIX file permissions, which the file system of "
              + path
              + " does not have. Use a POSIX file system (Linux, macOS), or set"
              + " 'spring.datasource.url' to use another PostgreSQL server (and the secret's"
              + " property, such as the shop's 'shop.admin-token').",
          e);
    }
    if (owner != currentUid()) {
      return Optional.of(
          "it belongs to user id " + owner + ", not to this user (" + currentUid() + ")");
    }
    Set<PosixFilePermission> granted = EnumSet.copyOf(attributes.permissions());
    granted.retainAll(forbidden);
    if (!granted.isEmpty()) {
      return Optional.of(
          "its permissions are "
              + PosixFilePermissions.toString(attributes.permissions())
              + ": group or others may use it");
    }
    return Optional.empty();
  }

  /**
   * Creates the folder and its missing parents as {@code rwx------}; see {@link #restrict}.
   *
   * @param directory the folder
   * @param what what the folder is for, named in messages
   * @param log where a warning goes
   * @return the folder's real path
   * @throws IllegalStateException if it cannot be created, or belongs to another user
   */
  public static Path directory(Path directory, String what, Log log) {
    try {
      Files.createDirectories(directory, DIRECTORY);
      return restrict(directory.toRealPath(), what, "rwx------", log);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create " + what + " " + directory + ": " + e, e);
    }
  }

  /**
   * Creates the file as {@code rw-------} unless it exists; see {@link #restrict}.
   *
   * @param file the file
   * @param what what the file is for, named in messages
   * @param log where a warning goes
   * @return the file
   * @throws IllegalStateException if it cannot be created, or belongs to another user
   */
  public static Path file(Path file, String what, Log log) {
    try {
      Files.createFile(file, FILE);
    } catch (FileAlreadyExistsException e) {
      // Kept; checked below.
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create " + what + " " + file + ": " + e, e);
    }
    return restrict(file, what, "rw-------", log);
  }

  /**
   * Writes a new file that is {@code rw-------} from the moment it exists, and flushed to disk.
   *
   * @param file the file, which must not exist
   * @param content its content
   * @throws IOException if it exists or cannot be written
   */
  public static void writeNew(Path file, String content) throws IOException {
    try (SeekableByteChannel channel =
        Files.newByteChannel(
            file,
            EnumSet.of(
                StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.SYNC),
            FILE)) {
      channel.write(ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
    }
  }

  /**
   * Refuses a path that belongs to another user; removes every permission of group and others from
   * one of the current user's, with a warning (it was created by an older version, or by hand).
   */
  private static Path restrict(Path path, String what, String mode, Log log) {
    try {
      Optional<String> foreign = problem(path, Set.of());
      if (foreign.isPresent()) {
        throw new IllegalStateException(
            "Refusing to use " + what + " " + path + ": " + foreign.get() + ".");
      }
      Optional<String> open = problem(path, GROUP_OR_OTHERS);
      if (open.isPresent()) {
        log.warn(what + " " + path + " was open to other users (" + open.get() + "); now " + mode);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
      }
      return path;
    } catch (IOException e) {
      throw new IllegalStateException("Cannot check " + what + " " + path + ": " + e, e);
    }
  }
}
