package dev.once.shop.database;

import dev.once.shop.secrets.OwnerOnly;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.logging.Log;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL programs ({@code initdb}, {@code pg_ctl}, {@code postgres}) of the zonky binaries
 * artifact on the class path, unpacked into a per-user cache that is checked before it is used.
 *
 * <p>zonky's own unpacking is not used: it unpacks into a folder under the system temp directory
 * that it makes world-writable, and reuses whatever it finds there. Here the archive goes to {@code
 * <cache>/once/postgres/<SHA-256 of the archive>/}, {@code <cache>} being {@code $XDG_CACHE_HOME}
 * or {@code ~/.cache}, with these guarantees before any program runs (checked once per JVM):
 *
 * <ul>
 *   <li>{@code once} and {@code once/postgres} belong to the current user and are {@code rwx------}
 *       (looser ones are tightened with a warning, another user's are refused);
 *   <li>the unpacked tree is exactly what its manifest lists (every file with its SHA-256 and
 *       execute bit, every link with its target, nothing else), all of it owned by the current user
 *       and writable by nobody else, its top folder {@code rwx------}. Otherwise it is deleted and
 *       unpacked again;
 *   <li>an unpack happens in a new private folder that is renamed into place only once complete,
 *       manifest included, so an interrupted unpack is never used.
 * </ul>
 */
final class PostgresBinaries {

  private static final String MANIFEST = "once-manifest.txt";

  /** Bound on one run of a program that is not expected to wait for anything. */
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

  private static final ConcurrentMap<Path, PostgresBinaries> PREPARED = new ConcurrentHashMap<>();

  private final Path home;

  private PostgresBinaries(Path home) {
    this.home = home;
  }

  /**
   * {@code $XDG_CACHE_HOME} if it is an absolute path (as the XDG specification asks), else {@code
   * ~/.cache}.
   *
   * @return the per-user cache folder
   */
  static Path defaultCache() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg);
    }
    return Path.of(System.getProperty("user.home"), ".cache");
  }

  /**
   * The checked binaries below {@code cache}, unpacked first if they are missing or fail a check.
   *
   * @param cache the per-user cache folder, normally {@link #defaultCache()}
   * @param log where re-unpacking is reported
   * @return binaries whose programs may be run
   * @throws IllegalStateException if the binaries cannot be found, checked or unpacked
   */
  static PostgresBinaries prepare(Path cache, Log log) {
    return PREPARED.computeIfAbsent(cache.toAbsolutePath(), c -> unpackIfNeeded(c, log));
  }

  /** The folder holding {@code bin}, {@code lib} and {@code share}. */
  Path home() {
    return home;
  }

  /**
   * The command line that runs one of the programs. As root, where PostgreSQL refuses to run, it
   * runs in a new user namespace ({@code unshare -U}, as zonky does): there it is an unprivileged
   * user that still owns root's files.
   */
  List<String> command(String program, String... arguments) {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      command.addAll(List.of("unshare", "-U"));
    }
    command.add(home.resolve("bin").resolve(program).toString());
    command.addAll(List.of(arguments));
    return command;
  }

  /**
   * Runs a program on a data directory to its end (bounded), writing {@code input} to its standard
   * input.
   *
   * @param output where its standard output and error go; with {@link Redirect#PIPE} they are
   *     returned
   * @param commandLine the program and its first arguments, separated by single spaces
   * @param dataDirectory passed next as {@code -D}
   * @param more the last arguments, as they are
   * @return what it printed, if {@code output} is a pipe, else the empty string
   * @throws IOException if it cannot be started, fails (the message has the exit code and, from a
   *     pipe, the output), or does not end in time
   */
  String run(Redirect output, String input, String commandLine, Path dataDirectory, String... more)
      throws IOException {
    String[] words = commandLine.split(" ");
    List<String> arguments = new ArrayList<>(List.of(words).subList(1, words.length));
    arguments.addAll(List.of("-D", dataDirectory.toString()));
    arguments.addAll(List.of(more));
    Process process =
        new ProcessBuilder(command(words[0], arguments.toArray(String[]::new)))
            .redirectErrorStream(true)
            .redirectOutput(output)
            .start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(input.getBytes(StandardCharsets.UTF_8));
    }
    String printed =
        output.type() == Redirect.Type.PIPE
            ? new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            : "";
    try {
      if (!process.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(words[0] + " did not end within " + RUN_TIMEOUT.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new InterruptedIOException("Interrupted waiting for " + words[0]);
    }
    if (process.exitValue() != 0) {
      throw new IOException(
          words[0] + " failed (exit " + process.exitValue() + ")" + ":\n" + printed.strip());
    }
    return printed;
  }

  /**
   * Fast shutdown of the server on a data directory ({@code pg_ctl stop -m fast}: roll back open
   * transactions, checkpoint, exit), waiting for it.
   *
   * @throws IOException if no server runs there, or it did not stop within {@code timeout}
   */
  void stop(Path dataDirectory, Duration timeout, Redirect output) throws IOException {
    run(output, "", "pg_ctl stop -m fast -w -t " + timeout.toSeconds(), dataDirectory);
  }

  /** Like {@link #prepare}, but checks again even if this JVM has already (for tests). */
  static PostgresBinaries unpackIfNeeded(Path cache, Log log) {
    String what = "the PostgreSQL binaries cache";
    // Top down: a folder is checked before anything is created in it.
    Path once = OwnerOnly.directory(cache.resolve("once"), what, log);
    Path root = OwnerOnly.directory(once.resolve("postgres"), what, log);
    try {
      byte[] archive = archive();
      String hash = HexFormat.of().formatHex(sha256().digest(archive));
      Path home = root.resolve(hash);
      Optional<String> problem = check(home, hash);
      if (problem.isPresent()) {
        if (Files.exists(home, LinkOption.NOFOLLOW_LINKS)) {
          log.warn("Unpacking the PostgreSQL binaries again: " + home + " " + problem.get());
          deleteTree(home);
        }
        unpack(archive, hash, root, home);
        problem = check(home, hash);
      }
      if (problem.isPresent()) {
        throw new IllegalStateException(home + " " + problem.get() + " right after unpacking");
      }
      return new PostgresBinaries(home);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot unpack the PostgreSQL binaries into " + root + ": " + e, e);
    }
  }

  /** The archive for this OS and architecture, as zonky selects it (Alpine has its own). */
  private static byte[] archive() throws IOException {
    String os = System.getProperty("os.name", "");
    String system =
        os.startsWith("Linux")
            ? "Linux"
            : os.toLowerCase(Locale.ROOT).startsWith("mac") ? "Darwin" : os;
    String arch = System.getProperty("os.arch", "");
    try (InputStream in =
        DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(
            system, arch.equals("amd64") ? "x86_64" : arch)) {
      return in.readAllBytes();
    }
  }

  /** Why {@code home} may not be used, or empty if it may. */
  private static Optional<String> check(Path home, String hash) throws IOException {
    if (!Files.exists(home, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of("does not exist");
    }
    Optional<String> open = OwnerOnly.problem(home, OwnerOnly.GROUP_OR_OTHERS);
    if (open.isPresent()) {
      return open;
    }
    Path manifest = home.resolve(MANIFEST);
    if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of("has no " + MANIFEST + " (an interrupted unpack?)");
    }
    Optional<String> manifestProblem = OwnerOnly.problem(manifest, OwnerOnly.WRITABLE_BY_OTHERS);
    if (manifestProblem.isPresent()) {
      return manifestProblem.map(p -> MANIFEST + ": " + p);
    }
    try {
      if (!describe(home, hash).equals(Files.readString(manifest, StandardCharsets.UTF_8))) {
        return Optional.of("differs from its " + MANIFEST + " (altered or incomplete)");
      }
    } catch (IOException e) {
      return Optional.of(e.getMessage()); // an unsafe or unreadable entry
    }
    return Optional.empty();
  }

  /**
   * One line per entry below {@code home} (manifest excepted), sorted: type, path, and for a file
   * its execute bit and SHA-256, for a link its target. Fails on an entry that another user owns or
   * may write.
   */
  private static String describe(Path home, String hash) throws IOException {
    StringBuilder lines = new StringBuilder("archive " + hash + "\n");
    List<Path> entries;
    try (Stream<Path> tree = Files.walk(home)) {
      entries =
          tree.filter(p -> !p.equals(home)).sorted(Comparator.comparing(Path::toString)).toList();
    }
    for (Path path : entries) {
      Path relative = home.relativize(path);
      if (relative.toString().equals(MANIFEST)) {
        continue;
      }
      boolean link = Files.isSymbolicLink(path);
      // A link's own permissions mean nothing (always rwxrwxrwx on Linux); its owner does.
      Optional<String> problem =
          OwnerOnly.problem(path, link ? Set.of() : OwnerOnly.WRITABLE_BY_OTHERS);
      if (problem.isPresent()) {
        throw new IOException(relative + ": " + problem.get());
      }
      if (link) {
        lines.append("l ").append(relative).append(" -> ").append(Files.readSymbolicLink(path));
      } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
        lines.append("d ").append(relative);
      } else {
        boolean executable =
            Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)
                .contains(PosixFilePermission.OWNER_EXECUTE);
        lines.append("f ").append(relative).append(executable ? " x " : " - ");
        try (DigestInputStream in = new DigestInputStream(Files.newInputStream(path), sha256())) {
          in.transferTo(OutputStream.nullOutputStream());
          lines.append(HexFormat.of().formatHex(in.getMessageDigest().digest()));
        }
      }
      lines.append('\n');
    }
    return lines.toString();
  }

  private static void unpack(byte[] archive, String hash, Path root, Path home) throws IOException {
    Path temporary = Files.createTempDirectory(root, ".unpack-"); // rwx------
    try {
      try (TarArchiveInputStream tar =
          new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
        for (TarArchiveEntry entry = tar.getNextEntry();
            entry != null;
            entry = tar.getNextEntry()) {
          extract(tar, entry, temporary);
        }
      }
      String manifest = describe(temporary, hash);
      OwnerOnly.writeNew(temporary.resolve(MANIFEST), manifest);
      Files.move(temporary, home, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
      // Another process unpacked the same archive first; its copy is checked like any other.
    } finally {
      if (Files.exists(temporary, LinkOption.NOFOLLOW_LINKS)) {
        deleteTree(temporary);
      }
    }
  }

  private static void extract(InputStream tar, TarArchiveEntry entry, Path root)
      throws IOException {
    Path target = root.resolve(entry.getName()).normalize();
    if (!target.startsWith(root)) {
      throw new IOException("Archive entry outside its folder: " + entry.getName());
    }
    if (entry.isDirectory()) {
      Files.createDirectories(target, OwnerOnly.DIRECTORY);
      return;
    }
    Files.createDirectories(target.getParent(), OwnerOnly.DIRECTORY);
    if (entry.isSymbolicLink()) {
      Path linkTarget = Path.of(entry.getLinkName());
      if (!target.getParent().resolve(linkTarget).normalize().startsWith(root)) {
        throw new IOException("Archive link outside its folder: " + entry.getName());
      }
      Files.createSymbolicLink(target, linkTarget);
    } else if (entry.isFile()) {
      boolean executable = (entry.getMode() & 0100) != 0;
      try (OutputStream out =
          Channels.newOutputStream(
              Files.newByteChannel(
                  target,
                  EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                  PosixFilePermissions.asFileAttribute(
                      PosixFilePermissions.fromString(executable ? "rwx------" : "rw-------"))))) {
        tar.transferTo(out);
      }
    } else {
      throw new IOException("Unsupported archive entry: " + entry.getName());
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> tree = Files.walk(root)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }
}
