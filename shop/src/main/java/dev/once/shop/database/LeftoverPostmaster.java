package dev.once.shop.database;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.logging.Log;

/**
 * Makes a data directory safe to start PostgreSQL on after the previous JVM died without stopping
 * its server (for example {@code kill -9}).
 *
 * <p>{@code pg_ctl start} daemonises the postmaster, so it is not a child of the JVM and survives
 * the JVM's death, still holding the data directory. PostgreSQL's own {@code postmaster.pid} check
 * would then refuse a new start ("Is another postmaster running?"). This class decides, from the
 * pid file and the live process table, what that leftover process is:
 *
 * <ul>
 *   <li>no pid file, or its PID no longer exists: nothing to do, PostgreSQL treats the file as
 *       stale itself (and still checks its shared-memory interlock, which is why the file is kept);
 *   <li>a PostgreSQL postmaster on this very directory: it is an orphan of a dead JVM (a live owner
 *       would hold zonky's {@code epg-lock}, checked first), so it gets a fast shutdown ({@code
 *       SIGINT}: roll back open transactions, checkpoint, exit) and we wait for it, bounded;
 *   <li>some other process (PID reused after a reboot, a zombie, another cluster): PostgreSQL would
 *       refuse to start because the PID is alive, so the stale pid file is removed.
 * </ul>
 *
 * <p>{@code SIGKILL} is never used: it would leave the backends running and attached to shared
 * memory, and PostgreSQL would refuse to start until they are gone.
 */
final class LeftoverPostmaster {

  /** PostgreSQL's lock file; line 1 is the postmaster's PID, line 4 its port. */
  static final String PID_FILE = "postmaster.pid";

  /**
   * The file zonky's {@code EmbeddedPostgres} keeps locked (a {@link FileLock}) while it runs a
   * server on the directory. The OS drops the lock when the JVM dies, so a lock we cannot take
   * means a live JVM owns the server.
   */
  static final String ZONKY_LOCK_FILE = "epg-lock";

  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  /** How often the bounded wait re-checks a process that might be a zombie. */
  private static final Duration POLL = Duration.ofMillis(200);

  private LeftoverPostmaster() {}

  /**
   * Ensures no other live process owns the directory and no orphaned postmaster runs on it.
   *
   * @param dataDirectory canonical data directory
   * @param stopTimeout how long to wait for an orphaned postmaster to finish its fast shutdown
   * @param log where to report what was found and done
   * @throws IllegalStateException if a live process owns the directory, the leftover process cannot
   *     be identified safely, or it does not stop in time
   */
  static void clear(Path dataDirectory, Duration stopTimeout, Log log) {
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
    try {
      pid = Long.parseLong(lines.isEmpty() ? "" : lines.get(0).strip());
    } catch (NumberFormatException e) {
      // An empty or truncated file comes from a postmaster that died while writing it (one that
      // is starting right now would belong to a live owner, ruled out above). PostgreSQL would
      // refuse to start on it ("lock file is empty" / "bogus data in lock file").
      removeStalePidFile(pidFile, "it holds no PID (" + lines + ")", log);
      return;
    }
    String port = lines.size() > 3 ? lines.get(3).strip() : "?";
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
    ProcessHandle handle = process.get();
    if (isZombie(pid)) {
      // kill(pid, 0) succeeds on a zombie, so PostgreSQL would take it for a live postmaster.
      removeStalePidFile(pidFile, "PID " + pid + " is a zombie (exited, not reaped)", log);
      return;
    }
    Optional<String> command = handle.info().command();
    if (command.isEmpty()) {
      throw new IllegalStateException(
          "Data directory "
              + dataDirectory
              + " has a "
              + PID_FILE
              + " naming PID "
              + pid
              + ", which is running but cannot be inspected (another user's process?). Stop it if"
              + " it is PostgreSQL, otherwise delete "
              + pidFile
              + ", then start again.");
    }
    if (!isPostgresBinary(command.get())) {
      removeStalePidFile(
          pidFile, "PID " + pid + " is now an unrelated process (" + command.get() + ")", log);
      return;
    }
    Optional<Boolean> onThisDirectory = runsOn(handle, dataDirectory);
    if (onThisDirectory.isEmpty()) {
      throw new IllegalStateException(
          "Data directory "
              + dataDirectory
              + " has a "
              + PID_FILE
              + " naming PostgreSQL PID "
              + pid
              + ", but its data directory cannot be determined. If it runs on "
              + dataDirectory
              + ", stop it with 'kill -INT "
              + pid
              + "'; otherwise delete "
              + pidFile
              + ", then start again.");
    }
    if (!onThisDirectory.get()) {
      removeStalePidFile(pidFile, "PID " + pid + " is a PostgreSQL of another data directory", log);
      return;
    }
    log.warn(
        "PostgreSQL PID "
            + pid
            + " (port "
            + port
            + ") is still running on "
            + dataDirectory
            + ", left behind by a JVM that did not shut down; stopping it with a fast shutdown");
    stop(handle, command.get(), dataDirectory, stopTimeout);
    log.info("Stopped leftover PostgreSQL PID " + pid + " on " + dataDirectory);
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
    return fileName != null
        && (fileName.toString().equals("postgres") || fileName.toString().equals("postgres.exe"));
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

  private static void stop(
      ProcessHandle process, String postgresCommand, Path dataDirectory, Duration timeout) {
    long pid = process.pid();
    sendFastShutdown(pid, postgresCommand);
    CompletableFuture<ProcessHandle> exit = process.onExit();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (isRunning(process)) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        throw new IllegalStateException(
            "PostgreSQL PID "
                + pid
                + " on "
                + dataDirectory
                + " did not finish its fast shutdown within "
                + timeout.toSeconds()
                + " s. Wait for it or stop it yourself ('kill -INT "
                + pid
                + "'; never kill -9), then start again.");
      }
      try {
        // Returns as soon as the process exits; the short bound lets us notice a zombie, which
        // never completes onExit().
        exit.get(Math.min(remaining, POLL.toNanos()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // Not exited yet: check again.
      } catch (ExecutionException e) {
        throw new IllegalStateException("Waiting for PostgreSQL PID " + pid + " failed", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted waiting for PostgreSQL PID " + pid, e);
      }
    }
  }

  /**
   * Sends {@code SIGINT} (PostgreSQL's "fast" shutdown). Java can only send {@code SIGTERM} (a
   * "smart" shutdown that waits for clients) or {@code SIGKILL}, hence the external command; on
   * Windows, which has no signals, PostgreSQL's own {@code pg_ctl kill} emulates it.
   */
  private static void sendFastShutdown(long pid, String postgresCommand) {
    List<String> command =
        WINDOWS
            ? List.of(
                Path.of(postgresCommand).resolveSibling("pg_ctl.exe").toString(),
                "kill",
                "INT",
                Long.toString(pid))
            // The shell builtin, so no separate kill binary needs to be installed.
            : List.of("/bin/sh", "-c", "kill -INT " + pid);
    try {
      Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!kill.waitFor(30, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new IllegalStateException("Timed out running " + command);
      }
      if (kill.exitValue() != 0
          && ProcessHandle.of(pid).map(LeftoverPostmaster::isRunning).orElse(false)) {
        throw new IllegalStateException(
            "Could not stop PostgreSQL PID "
                + pid
                + " with "
                + command
                + " (exit "
                + kill.exitValue()
                + "): "
                + output.strip());
      }
    } catch (InterruptedIOException | InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted stopping PostgreSQL PID " + pid, e);
    } catch (IOException e) {
      throw new IllegalStateException("Could not run " + command + ": " + e.getMessage(), e);
    }
  }
}
