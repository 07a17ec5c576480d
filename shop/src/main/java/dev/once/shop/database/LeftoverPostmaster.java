package dev.once.shop.database;

import dev.once.shop.secrets.OwnerOnly;
import java.io.IOException;
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
 * its server ({@code kill -9}): the daemonised postmaster survives the JVM, and PostgreSQL's own
 * {@code postmaster.pid} check would then refuse a new start. What the pid file names is decided
 * from the live process table:
 *
 * <ul>
 *   <li>no pid file, or its PID no longer exists: nothing to do (PostgreSQL treats the file as
 *       stale itself, and still checks its shared-memory interlock);
 *   <li>the postmaster that wrote the file: the {@code postgres} program, working in this very
 *       directory, started no later than the file's start time (line 3) plus {@link
 *       #START_TOLERANCE}. It is an orphan of a dead JVM (a live owner would hold zonky's {@value
 *       #ZONKY_LOCK_FILE}, checked first), so the {@code pg_ctl} beside its own {@code postgres}
 *       stops it ({@code stop -m fast}: roll back, checkpoint, exit; no shell) and is waited for;
 *   <li>any other process (the PID was reused): it is never signalled, and the stale pid file,
 *       which would make PostgreSQL refuse to start, is removed.
 * </ul>
 *
 * <p>Only if the orphan exited and its PID was reused in the milliseconds between the check and
 * {@code pg_ctl}'s signal would the newcomer be signalled. {@code SIGKILL} is never used: it would
 * leave the backends attached to shared memory, and PostgreSQL would refuse to start.
 */
final class LeftoverPostmaster {

  /** PostgreSQL's lock file: line 1 the PID, line 3 the start time (epoch seconds), line 4 port. */
  static final String PID_FILE = "postmaster.pid";

  /** The file zonky keeps locked while it runs a server; the OS drops the lock with the JVM. */
  static final String ZONKY_LOCK_FILE = "epg-lock";

  /** The JDK's start time and the file's have whole seconds; the rest is for clock changes. */
  static final Duration START_TOLERANCE = Duration.ofSeconds(5);

  /** Bound on an orphan's fast shutdown, which checkpoints first. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private LeftoverPostmaster() {}

  /**
   * Ensures no other live process owns the directory and no orphaned postmaster runs on it.
   *
   * @param dataDirectory canonical data directory
   * @param log where to report what was found and done
   * @throws IllegalStateException if a live process owns the directory, the leftover process cannot
   *     be identified safely, or it does not stop in time
   */
  static void clear(Path dataDirectory, Log log) {
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
      pid = Math.abs(Long.parseLong(lines.get(0).strip())); // negative: a single-user backend
      written = Instant.ofEpochSecond(Long.parseLong(lines.get(2).strip()));
    } catch (RuntimeException e) {
      // From a postmaster that died while writing it (a live owner was ruled out above).
      removeStalePidFile(pidFile, "it holds no PID and start time (" + lines + ")", log);
      return;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isEmpty()) {
      log.info("Found " + pidFile + " of PostgreSQL PID " + pid + ", which no longer runs");
      return;
    }
    String postgres = command(process.get(), dataDirectory, written, pidFile, log);
    if (postgres == null) {
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
      Path pgCtl = Path.of(postgres).resolveSibling("pg_ctl");
      Optional<String> problem =
          OwnerOnly.problem(pgCtl.toRealPath(), OwnerOnly.WRITABLE_BY_OTHERS);
      if (problem.isPresent()) {
        throw new IOException("will not run " + pgCtl + ": " + problem.get());
      }
      String stop = "stop -m fast -w -t " + STOP_TIMEOUT.toSeconds();
      EmbeddedPostgresServer.run(
          EmbeddedPostgresServer.toLog(dataDirectory, log), "", pgCtl, stop, dataDirectory);
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not stop PostgreSQL PID "
              + pid
              + " on "
              + dataDirectory
              + " ("
              + e.getMessage()
              + "; see its log). Wait for it or stop it yourself ('kill -INT "
              + pid
              + "'; never kill -9), then start again.",
          e);
    }
    log.info("Stopped leftover PostgreSQL PID " + pid + " on " + dataDirectory);
  }

  /**
   * The {@code postgres} command of the live process if it is the postmaster that wrote the pid
   * file, else {@code null}, after removing the stale pid file.
   *
   * @throws IllegalStateException if that cannot be told
   */
  private static String command(
      ProcessHandle process, Path dataDirectory, Instant written, Path pidFile, Log log) {
    long pid = process.pid();
    Optional<String> command = process.info().command();
    Optional<Instant> started = process.info().startInstant();
    Optional<Boolean> onThisDirectory =
        command.isEmpty() ? Optional.empty() : runsOn(process, dataDirectory);
    String stranger;
    if (isZombie(pid)) {
      // kill(pid, 0) succeeds on a zombie, so PostgreSQL would take it for a live postmaster.
      stranger = "is a zombie (exited, not reaped)";
    } else if (command.isEmpty() || started.isEmpty() || onThisDirectory.isEmpty()) {
      throw new IllegalStateException(
          pidFile
              + " names PID "
              + pid
              + ", which is running but cannot be inspected (another user's process?). If it is"
              + " PostgreSQL on this directory, stop it ('kill -INT "
              + pid
              + "'); otherwise delete "
              + pidFile
              + ", then start again.");
    } else if (!Path.of(command.get()).endsWith("postgres")) {
      stranger = "is now an unrelated process (" + command.get() + ")";
    } else if (!onThisDirectory.get()) {
      stranger = "is a PostgreSQL of another data directory";
    } else if (started.get().isAfter(written.plus(START_TOLERANCE))) {
      stranger =
          "started at "
              + started.get()
              + ", after the pid file was written ("
              + written
              + "): the PID was reused";
    } else {
      return command.get();
    }
    removeStalePidFile(pidFile, "PID " + pid + " " + stranger, log);
    return null;
  }

  /**
   * Fails if another live process holds zonky's lock on the directory: then the postmaster belongs
   * to a running application, and stopping it would pull the database out from under it.
   */
  private static void ensureNoLiveOwner(Path dataDirectory) {
    Path lockFile = dataDirectory.resolve(ZONKY_LOCK_FILE);
    String owner = "another process";
    if (!Files.exists(lockFile)) {
      return; // never created here: initdb refuses a non-empty directory
    }
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        lock.release();
        return;
      }
    } catch (OverlappingFileLockException e) {
      owner = "this JVM, outside the shop's server registry";
    } catch (NoSuchFileException e) {
      return; // deleted meanwhile: its owner went away
    } catch (IOException e) {
      throw new IllegalStateException("Cannot check the lock " + lockFile + ": " + e, e);
    }
    throw new IllegalStateException(
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

  /**
   * Whether the postmaster serves {@code dataDirectory}: its working directory (in {@code /proc} on
   * Linux), else a {@code -D <dir>} argument. Empty if neither can be read.
   */
  private static Optional<Boolean> runsOn(ProcessHandle process, Path dataDirectory) {
    try {
      Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
      return Optional.of(Files.readSymbolicLink(cwd).equals(dataDirectory));
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // Not Linux, or not allowed: fall back to the command line.
    }
    Optional<String[]> arguments = process.info().arguments();
    if (arguments.isEmpty()) {
      return Optional.empty();
    }
    List<String> args = List.of(arguments.get());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String dir =
          arg.equals("-D") && i + 1 < args.size()
              ? args.get(i + 1)
              : arg.startsWith("-D") ? arg.substring(2) : null;
      if (dir != null && samePath(dir, dataDirectory)) {
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
}
