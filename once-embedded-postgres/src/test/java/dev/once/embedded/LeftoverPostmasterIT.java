package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code postmaster.pid} whose PID now belongs to another live process: that process is never
 * signalled. The real orphan of a killed JVM is {@link EmbeddedPostgresKillIT}'s.
 */
class LeftoverPostmasterIT {

  private static final Log LOG = LogFactory.getLog(LeftoverPostmasterIT.class);

  @TempDir Path temp;

  private final List<Process> children = new ArrayList<>();

  @AfterEach
  void endChildren() {
    children.forEach(Process::destroyForcibly);
  }

  @Test
  void aPostgresOnTheDirectoryThatStartedAfterThePidFileWasWrittenIsNeverSignalled()
      throws Exception {
    Path data = dataDirectory();
    // Passes every other check: it is a "postgres" program working in the data directory.
    Process impostor = impostor(data);
    Path pidFile = writePidFile(data, impostor.pid(), Instant.now().minus(Duration.ofHours(1)));

    LeftoverPostmaster.clear(data, LOG);

    assertThat(impostor.isAlive()).as("the process that reused the PID is untouched").isTrue();
    assertThat(pidFile).as("the stale pid file is removed").doesNotExist();
  }

  @Test
  void anUnrelatedProgramIsNeverSignalled() throws Exception {
    Path data = dataDirectory();
    Process sleep = start(new ProcessBuilder("sleep", "600"));
    Path pidFile = writePidFile(data, sleep.pid(), Instant.now().minus(Duration.ofHours(1)));

    LeftoverPostmaster.clear(data, LOG);

    assertThat(sleep.isAlive()).isTrue();
    assertThat(pidFile).doesNotExist();
  }

  /** The control: the start time alone is what spares the impostor above. */
  @Test
  void theSameImpostorIsStoppedWhenThePidFileIsYoungerThanIt() throws Exception {
    Path data = dataDirectory();
    Process impostor = impostor(data);
    writePidFile(data, impostor.pid(), Instant.now().plus(Duration.ofHours(1)));

    // A build run in the background by a shell starts with SIGINT ignored, which the impostor
    // inherits: then pg_ctl's signal cannot end it, whatever the code under test does.
    boolean interruptIgnored = ignoresInterrupt(impostor.pid());

    IllegalStateException failure = null;
    try {
      // 2 s to stop, not 30: with SIGINT ignored, pg_ctl waits out the whole time.
      LeftoverPostmaster.clear(data, LOG, 2);
    } catch (IllegalStateException e) {
      failure = e; // pg_ctl waited in vain for the pid file to go: the impostor does not remove it
    }

    if (interruptIgnored) {
      assertThat(impostor.isAlive()).isTrue();
      assertThat(failure).hasMessageContaining("Could not stop PostgreSQL PID " + impostor.pid());
    } else {
      assertThat(impostor.waitFor(60, TimeUnit.SECONDS)).as("ended by pg_ctl").isTrue();
      assertThat(impostor.exitValue()).as("ended by pg_ctl's SIGINT").isEqualTo(128 + 2);
    }
  }

  /** Whether the process ignores SIGINT (bit 2 of the SigIgn mask in its /proc status). */
  private static boolean ignoresInterrupt(long pid) throws IOException {
    String mask =
        Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
            .filter(line -> line.startsWith("SigIgn:"))
            .findFirst()
            .orElseThrow()
            .substring("SigIgn:".length())
            .strip();
    int sigint = 2; // signal n is bit n - 1
    return (Long.parseUnsignedLong(mask, 16) & (1L << (sigint - 1))) != 0;
  }

  private Path dataDirectory() throws IOException {
    Path data = Files.createDirectories(temp.resolve("pg")).toRealPath();
    Files.writeString(data.resolve("PG_VERSION"), "17\n"); // pg_ctl wants a cluster directory
    return data;
  }

  /**
   * A copy of {@code sleep} named {@code postgres}, working in the data directory, with the real
   * {@code pg_ctl} beside it (as the leftover's own binaries are used to stop it).
   */
  private Process impostor(Path data) throws IOException {
    Path postgres = Files.createDirectories(temp.resolve("bin")).resolve("postgres");
    if (!Files.exists(postgres)) {
      Files.copy(Path.of("/bin/sleep"), postgres);
      Files.setPosixFilePermissions(postgres, PosixFilePermissions.fromString("rwx------"));
      Files.createSymbolicLink(
          postgres.resolveSibling("pg_ctl"), TestServers.bin().resolve("pg_ctl"));
    }
    Process process =
        start(new ProcessBuilder(postgres.toString(), "600").directory(data.toFile()));
    assertThat(process.info().command()).hasValue(postgres.toString());
    return process;
  }

  private Process start(ProcessBuilder builder) throws IOException {
    Process process = builder.start();
    children.add(process);
    return process;
  }

  /** The lines PostgreSQL writes: PID, directory, start time, port, socket folder, address, ... */
  private static Path writePidFile(Path data, long pid, Instant started) throws IOException {
    return Files.write(
        data.resolve(LeftoverPostmaster.PID_FILE),
        List.of(
            Long.toString(pid),
            data.toString(),
            Long.toString(started.getEpochSecond()),
            "5432",
            "",
            "localhost",
            "  1234567     0",
            "ready   "),
        StandardCharsets.UTF_8);
  }
}
