package dev.once.shop.database;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.commons.logging.Log;

/**
 * Makes a data directory safe to start PostgreSQL on after the previous JVM died without stopping
 * its server (for example {@code kill -9}).
 *
 * <p>{@code pg_ctl start} daemonises the postmaster, so it is not a child of the JVM and survives
 * the JVM's death, still holding the data directory. PostgreSQL's own {@code postmaster.pid} check
 * would then refuse a new start ("Is another postmaster running?"). This class decides, from the
 * pid file and the live process table, what the process it names is:
 *
 * <ul>
 *   <li>no pid file, or its PID no longer exists: nothing to do, PostgreSQL treats the file as
 *       stale itself (and still checks its shared-memory interlock, which is why the file is kept);
 *   <li>the postmaster that wrote the file: the {@code postgres} program, working in this very
 *       directory, started no later than the file's start time (line 3) plus {@link
 *       #START_TOLERANCE}. It is an orphan of a dead JVM (a live owner would hold zonky's {@code
 *       epg-lock}, checked first), so {@code pg_ctl stop -m fast} stops it (roll back open
 *       transactions, checkpoint, exit) and waits, bounded;
 *   <li>any other process (the PID was reused: a zombie, another program, PostgreSQL of another
 *       directory, anything started after the file was written): it is never signalled. PostgreSQL
 *       would refuse to start because the PID is alive, so the stale pid file is removed.
 * </ul>
 *
 * <p>The check and {@code pg_ctl}'s signal are two steps: only if the orphan exited and its PID was
 * reused in the milliseconds between them would the newcomer be signalled. {@code SIGKILL} is never
 * used: it would leave the backends running and attached to shared memory, and PostgreSQL would
 * refuse to start until they are gone.
 */
final class LeftoverPostmaster {

  /**
   * PostgreSQL's lock file; line 1 is the postmaster's PID (negative for a single-user backend),
   * line 3 its start time in epoch seconds, line 4 its port.
   */
  static final String PID_FILE = "postmaster.pid";

  /**
   * The file zonky's {@code EmbeddedPostgres} keeps locked (a {@link FileLock}) while it runs a
   * server on the directory. The OS drops the lock when the JVM dies, so a lock we cannot take
   * means a live JVM owns the server.
   */
  static final String ZONKY_LOCK_FILE = "epg-lock";

  /**
   * How much later than the pid file's start time the postmaster's start may appear. The JDK
   * derives a start time from the whole-second boot time and the file has whole seconds, which
   * accounts for 2 s; the rest allows for a clock adjusted since.
   */
  static final Duration START_TOLERANCE = Duration.ofSeconds(5);

  private LeftoverPostmaster() {}

  /**
   * Ensures no other live process owns the directory and no orphaned postmaster runs on it.
   *
   * @param dataDirectory canonical data directory
   * @param binaries whose {@code pg_ctl} stops an orphan
   * @param stopTimeout how long to wait for an orphaned postmaster to finish its fast shutdown
   * @param log where to report what was found and done
   * @throws IllegalStateException if a live process owns the directory, the leftover process cannot
   *     be identified safely, or it does not stop in time
   */
  static void clear(Path dataDirectory, PostgresBinaries binaries, Duration stopTimeout, Log log) {
    ensureNoLiveOwner(dataDirectory);
    Path pidFile = dataDirectory.resolve(PID_FILE);
    List<String> lines;
    try {
      lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return; // the last server was stopped cleanly, or never started
    } catch (IOException e) {
      throw new IllegalStateException("Cannot read " + pidFile + ": " + e.getMessage(), e);
    }
    long pid;
    Instant written;
    try {
      pid = Math.abs(Long.parseLong(lines.get(0).strip()));
      written = Instant.ofEpochSecond(Long.parseLong(lines.get(2).strip()));
    } catch (RuntimeException e) {
      // An empty or truncated file comes from a postmaster that died while writing it (one that
      // is starting right now would belong to a live owner, ruled out above). PostgreSQL would
      // refuse to start on it ("lock file is empty" / "bogus data in lock file").
      removeStalePidFile(pidFile, "it holds no PID and start time (" + lines + ")", log);
      return;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty()) {
      log.info(
          "Found "
              + pidFile
              + " of PostgreSQL PID "
              + pid
              + ", which is no longer running; PostgreSQL will treat it as stale and recover");
      return;
    }
    Optional<String> stranger = stranger(process.get(), dataDirectory, written);
    if (stranger.isPresent()) {
      removeStalePidFile(pidFile, "PID " + pid + " " + stranger.get(), log);
      return;
    }
    String port = lines.size() > 3 ? lines.get(3).strip() : "?";
    log.warn(
        "PostgreSQL PID "
            + pid
            + " (port "
            + port
            + ") is still running on "
            + dataDirectory
            + ", left behind by a JVM that did not shut down; stopping it with a fast shutdown");
    try {
      binaries.stop(dataDirectory, stopTimeout, Redirect.PIPE);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not stop PostgreSQL PID "
              + pid
              + " on "
              + dataDirectory
              + " within "
              + stopTimeout.toSeconds()
              + " s ("
              + e.getMessage()
              + "). Wait for it or stop it yourself ('kill -INT "
              + pid
              + "'; never kill -9), then start again.",
          e);
    }
    log.info("Stopped leftover PostgreSQL PID " + pid + " on " + dataDirectory);
  }

  /**
   * Why the live process is not the postmaster that wrote the pid file, or empty if it is.
   *
   * @throws IllegalStateException if that cannot be told
   */
  private static Optional<String> stranger(
      ProcessHandle process, Path dataDirectory, Instant written) {
    long pid = process.pid();
    if (isZombie(pid)) {
      // kill(pid, 0) succeeds on a zombie, so PostgreSQL would take it for a live postmaster.
      return Optional.of("is a zombie (exited, not reaped)");
    }
    Optional<String> command = process.info().command();
    Optional<Instant> started = process.info().startInstant();
    Optional<Boolean> onThisDirectory =
        command.isEmpty() ? Optional.empty() : runsOn(process, dataDirectory);
    if (command.isEmpty() || started.isEmpty() || onThisDirectory.isEmpty()) {
      throw new IllegalStateException(
          "Data directory "
              + dataDirectory
              + " has a "
              + PID_FILE
              + " naming PID "
              + pid
              + ", which is running but cannot be inspected (another user's process?). If it is"
              + " PostgreSQL on this directory, stop it ('kill -INT "
              + pid
              + "'); otherwise delete "
              + dataDirectory.resolve(PID_FILE)
              + ", then start again.");
    }
    if (!isPostgresBinary(command.get())) {
      return Optional.of("is now an unrelated process (" + command.get() + ")");
    }
    if (!onThisDirectory.get()) {
      return Optional.of("is a PostgreSQL of another data directory");
    }
    if (started.get().isAfter(written.plus(START_TOLERANCE))) {
      return Optional.of(
          "started at "
              + started.get()
              + ", after the pid file was written ("
              + written
              + "): the PID was reused");
    }
    return Optional.empty();
  }

  /**
   * Fails if another live process holds zonky's lock on the directory: then the postmaster belongs
   * to a running application, and stopping it would pull the database out from under it.
   */
  private static void ensureNoLiveOwner(Path dataDirectory) {
    Path lockFile = dataDirectory.resolve(ZONKY_LOCK_FILE);
    if (!Files.exists(lockFile)) {
      // Never create it here: initdb refuses a non-empty directory.
      return;
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw inUse(dataDirectory, lockFile, "another process");
      }
      lock.release();
    } catch (OverlappingFileLockException e) {
      throw inUse(dataDirectory, lockFile, "this JVM, outside the shop's server registry");
    } catch (NoSuchFileException e) {
      // Deleted between the two calls: its owner went away.
    } catch (IOException e) {
      throw new IllegalStateException("Cannot check the lock " + lockFile + ": " + e, e);
    }
  }

  private static IllegalStateException inUse(Path dataDirectory, Path lockFile, String owner) {
    return new IllegalStateException(
        "Data directory "
            + dataDirectory
            + " is in use by an embedded PostgreSQL of "
            + owner
            + " (it holds "
            + lockFile
            + "). Stop that application, or set '"
            + EmbeddedPostgresSettings.DATA_DIR
            + "' to another directory.");
  }

  private static void removeStalePidFile(Path pidFile, String why, Log log) {
    log.warn("Removing stale " + pidFile + ": " + why + "; PostgreSQL would refuse to start");
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot delete stale " + pidFile + ": " + e, e);
    }
  }

  static boolean isPostgresBinary(String command) {
    Path fileName = Path.of(command).getFileName();
    return fileName != null && fileName.toString().equals("postgres");
  }

  /**
   * Whether the postmaster serves {@code dataDirectory}: PostgreSQL changes its working directory
   * to the data directory (visible in {@code /proc} on Linux), and {@code pg_ctl} passes it as
   * {@code -D <dir>}. Empty if neither can be read.
   */
  private static Optional<Boolean> runsOn(ProcessHandle process, Path dataDirectory) {
    Path cwdLink = Path.of("/proc", Long.toString(process.pid()), "cwd");
    try {
      return Optional.of(Files.readSymbolicLink(cwdLink).equals(dataDirectory));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // Not Linux, or not allowed: fall back to the command line.
    }
    Optional<String[]> arguments = process.info().arguments();
    if (arguments.isEmpty()) {
      return Optional.empty();
    }
    String[] args = arguments.get();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("-D") && i + 1 < args.length && samePath(args[i + 1], dataDirectory)) {
        return Optional.of(true);
      }
      if (arg.startsWith("-D") && samePath(arg.substring(2), dataDirectory)) {
        return Optional.of(true);
      }
    }
    return Optional.of(false);
  }

  private static boolean samePath(String candidate, Path dataDirectory) {
    try {
      Path path = Path.of(candidate);
      return path.toAbsolutePath().normalize().equals(dataDirectory)
          || (Files.exists(path) && path.toRealPath().equals(dataDirectory));
    } catch (RuntimeException | IOException e) {
      return false;
    }
  }

  /**
   * On Linux, whether the process has exited but was not reaped yet. The JDK reports zombies as
   * alive, and one never completes {@link ProcessHandle#onExit()}.
   */
  static boolean isZombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // Format: "pid (comm) state ..."; comm may contain spaces and parentheses.
      int end = stat.lastIndexOf(')');
      return end >= 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  static boolean isRunning(ProcessHandle process) {
    return process.isAlive() && !isZombie(process.pid());
  }
}
