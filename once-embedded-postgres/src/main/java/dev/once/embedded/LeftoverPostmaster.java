package dev.once.embedded;

import static dev.once.embedded.EmbeddedPostgresProperties.DATA_DIR;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.once.embedded.secrets.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.commons.logging.Log;

/**
 * Makes a data directory safe to start PostgreSQL on after the previous JVM died without stopping
 * its server ({@code kill -9}): the daemonised postmaster outlives the JVM, and PostgreSQL would
 * refuse to start beside it. The process that {@code postmaster.pid} names is
 *
 * <ul>
 *   <li>gone: nothing to do (PostgreSQL treats the file as stale and checks its shared memory);
 *   <li>the postmaster that wrote the file: the {@code postgres} program, working in this very
 *       directory, started no later than the file's start time (line 3) plus 5 s. It is an orphan
 *       (a live owner would hold zonky's {@code epg-lock}, checked first), stopped by the {@code
 *       pg_ctl} beside its own {@code postgres} with {@code stop -m fast} (roll back, checkpoint,
 *       exit; no shell), and waited for;
 *   <li>anything else (the PID was reused): never signalled; the pid file is removed.
 * </ul>
 *
 * <p>Only if the orphan exited and its PID was reused in the moment between the check and {@code
 * pg_ctl}'s signal would the newcomer be signalled. {@code SIGKILL} is never used: it would leave
 * the backends attached to shared memory, and PostgreSQL would refuse to start.
 */
final class LeftoverPostmaster {

  /** PostgreSQL's lock file: line 1 the PID, line 3 the start time (epoch seconds), line 4 port. */
  static final String PID_FILE = "postmaster.pid";

  /** How long a leftover postmaster has to stop (a fast shutdown: roll back, checkpoint). */
  static final int STOP_SECONDS = 30;

  private LeftoverPostmaster() {}

  /**
   * Ensures no other live process owns the directory and no orphaned postmaster runs on it.
   *
   * @throws IllegalStateException if a live process owns it, what runs there cannot be told, or it
   *     does not stop in time
   */
  static void clear(Path dataDirectory, Log log) {
    clear(dataDirectory, log, STOP_SECONDS);
  }

  /** {@link #clear(Path, Log)}, giving a leftover {@code stopSeconds} to stop. */
  static void clear(Path dataDirectory, Log log, int stopSeconds) {
    ensureNoLiveOwner(dataDirectory);
    Path pidFile = dataDirectory.resolve(PID_FILE);
    List<String> lines = List.of();
    long pid;
    Instant written;
    try {
      lines = Files.readAllLines(pidFile);
      pid = Math.abs(Long.parseLong(lines.get(0).strip())); // negative: a single-user backend
      written = Instant.ofEpochSecond(Long.parseLong(lines.get(2).strip()));
    } catch (NoSuchFileException e) {
      return; // the last server was stopped cleanly, or never started
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) { // written by a postmaster that died (a live owner is ruled out)
      removeStale(pidFile, "it holds no PID and start time (" + lines + ")", log);
      return;
    }
    String postgres =
        ProcessHandle.of(pid).map(p -> postmaster(p, pidFile, written, log)).orElse(null);
    if (postgres == null) {
      return; // gone, or not the postmaster that wrote the pid file (which is removed)
    }
    String port = lines.size() > 3 ? lines.get(3) : "?";
    String leftover = "PostgreSQL PID %d (port %s) was left running on %s by a JVM that did";
    log.warn(leftover.formatted(pid, port, dataDirectory) + " not stop it; stopping it");
    try {
      Path pgCtl = Path.of(postgres).resolveSibling("pg_ctl");
      Optional<String> unsafe = OwnerOnly.problem(pgCtl.toRealPath(), OwnerOnly.WRITABLE_BY_OTHERS);
      if (unsafe.isPresent()) {
        throw new IOException("will not run " + pgCtl + ": " + unsafe.get());
      }
      EmbeddedPostgresServer.run(
          dataDirectory, log, "", pgCtl, "stop -m fast -w -t " + stopSeconds);
    } catch (IOException e) {
      String message = "Could not stop PostgreSQL PID %d on %s (%s; see its log). Wait, or stop it";
      message = message.formatted(pid, dataDirectory, e.getMessage());
      throw new IllegalStateException(message + " yourself with 'kill -INT " + pid + "'.", e);
    }
  }

  /** Its command if the process is the postmaster that wrote the pid file, else removes that. */
  private static String postmaster(ProcessHandle process, Path pidFile, Instant written, Log log) {
    Optional<String> command = process.info().command();
    Optional<Instant> started = process.info().startInstant();
    Optional<Boolean> here = command.isPresent() ? runsIn(process, pidFile) : Optional.empty();
    String stranger;
    if (isZombie(process.pid())) { // which PostgreSQL would take for a live postmaster
      stranger = "is a zombie (exited, not reaped)";
    } else if (command.isEmpty() || started.isEmpty() || here.isEmpty()) {
      String message = "%s names PID %d, which cannot be inspected: stop it if it is PostgreSQL";
      throw new IllegalStateException(
          message.formatted(pidFile, process.pid()) + ", else delete it");
    } else if (!Path.of(command.get()).endsWith("postgres")) {
      stranger = "is now an unrelated process (" + command.get() + ")";
    } else if (!here.get()) {
      stranger = "is a PostgreSQL of another data directory";
    } else if (started.get().isAfter(written.plusSeconds(5))) { // whole seconds, clock changes
      stranger = "started at %s, after the pid file was written (%s): the PID was reused";
      stranger = stranger.formatted(started.get(), written);
    } else {
      return command.get();
    }
    removeStale(pidFile, "PID " + process.pid() + " " + stranger, log);
    return null;
  }

  /** The PID on line 1 of the directory's {@value #PID_FILE}, if it has a readable one. */
  static Optional<Long> pid(Path dataDirectory) {
    try {
      return Optional.of(
          Long.parseLong(Files.readAllLines(dataDirectory.resolve(PID_FILE)).get(0).strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Fails if a live process holds zonky's lock: stopping its server would pull the data away. */
  private static void ensureNoLiveOwner(Path dataDirectory) {
    String owner = "another process";
    try (FileChannel channel = FileChannel.open(dataDirectory.resolve("epg-lock"), WRITE);
        FileLock lock = channel.tryLock()) {
      if (lock != null) {
        return; // nobody holds it; released again at once
      }
    } catch (OverlappingFileLockException e) {
      owner = "this JVM, outside the registry of EmbeddedPostgresServer";
    } catch (NoSuchFileException e) {
      return; // never created here: initdb refuses a non-empty directory
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String message = "Data directory %s is in use by an embedded PostgreSQL of %s. Stop it or set";
    throw new IllegalStateException(message.formatted(dataDirectory, owner) + " " + DATA_DIR);
  }

  private static void removeStale(Path pidFile, String why, Log log) {
    log.warn("Removing stale " + pidFile + ": " + why + "; PostgreSQL would refuse to start");
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether it works in the pid file's folder ({@code /proc} cwd), else has it as {@code -D}. */
  static Optional<Boolean> runsIn(ProcessHandle process, Path pidFile) {
    try {
      Path cwd = Files.readSymbolicLink(Path.of("/proc/" + process.pid() + "/cwd"));
      return Optional.of(cwd.equals(pidFile.getParent()));
    } catch (IOException | RuntimeException e) { // not Linux, or not allowed: the command line
      String option = "\0-D\0" + pidFile.getParent() + "\0";
      Optional<String[]> arguments = process.info().arguments();
      return arguments.map(a -> ("\0" + String.join("\0", a) + "\0").contains(option));
    }
  }

  /** Alive and not a zombie (which the JDK reports as alive). */
  static boolean running(ProcessHandle process) {
    return process.isAlive() && !isZombie(process.pid());
  }

  /** Whether the process exited but was not reaped (Linux): the JDK reports it as alive. */
  static boolean isZombie(long pid) {
    try { // the name in the line before is escaped, so it cannot fake this
      return Files.readString(Path.of("/proc/" + pid + "/status")).contains("\nState:\tZ");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
