package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM killed with {@code kill -9} leaves its embedded PostgreSQL running; the next start on the
 * same data directory must stop that orphan cleanly and keep the committed data. Real processes
 * throughout: a child JVM, SIGKILL, the orphaned postmaster.
 */
class EmbeddedPostgresKillIT {

  private static final Log LOG = LogFactory.getLog(EmbeddedPostgresKillIT.class);

  private static final Pattern MARKER =
      Pattern.compile(Pattern.quote(KilledJvmChild.MARKER) + " pid=(\\d+) port=(\\d+)");

  @TempDir Path temp;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void restartAfterKillNineStopsTheOrphanAndKeepsCommittedRows() throws Exception {
    Path dataDirectory = temp.resolve("pgdata");
    Process child = startChild(dataDirectory);
    long orphanPid = -1;
    try {
      Matcher ready = awaitMarker(child);
      orphanPid = Long.parseLong(ready.group(1));

      child.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM ends after SIGKILL").isTrue();
      ProcessHandle orphan = ProcessHandle.of(orphanPid).orElseThrow();
      assertThat(TestServers.isRunning(orphan))
          .as("postmaster %d outlives the killed JVM", orphanPid)
          .isTrue();

      EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);

      // pg_ctl stop returns once the pid file is gone, a moment before the process ends.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (TestServers.isRunning(orphan) && System.nanoTime() < deadline) {
        orphan.onExit().completeOnTimeout(orphan, 50, TimeUnit.MILLISECONDS).join();
      }
      assertThat(TestServers.isRunning(orphan))
          .as("orphaned postmaster %d was stopped", orphanPid)
          .isFalse();
      assertThat(TestServers.postmasterPid(server)).isNotEqualTo(orphanPid);
      assertThat(survivorNote(server)).isEqualTo("committed before kill -9");

      // Second scenario on the same cluster: a stale postmaster.pid whose PID now belongs to an
      // unrelated live process (here this JVM). PostgreSQL alone would refuse to start.
      Path pidFile = dataDirectory.resolve(LeftoverPostmaster.PID_FILE);
      List<String> pidLines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
      assertThat(TestServers.stop(dataDirectory)).isTrue();
      assertThat(pidFile).doesNotExist(); // a clean shutdown removes it
      pidLines.set(0, Long.toString(ProcessHandle.current().pid()));
      Files.write(pidFile, pidLines, StandardCharsets.UTF_8);

      EmbeddedPostgresServer restarted = TestServers.obtain(dataDirectory, false);

      assertThat(TestServers.postmasterPid(restarted)).isNotEqualTo(ProcessHandle.current().pid());
      assertThat(survivorNote(restarted)).isEqualTo("committed before kill -9");
    } finally {
      child.destroyForcibly();
      TestServers.stop(dataDirectory);
      if (orphanPid > 0 && ProcessHandle.of(orphanPid).map(TestServers::isRunning).orElse(false)) {
        // The test failed before the restart did it: stop the orphan the same clean way.
        LeftoverPostmaster.clear(dataDirectory.toRealPath(), LOG);
      }
    }
  }

  private static Process startChild(Path dataDirectory) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            KilledJvmChild.class.getName(),
            dataDirectory.toString())
        .redirectErrorStream(true)
        .start();
  }

  /** Reads the child's output until the marker line, bounded; the output explains a failure. */
  private static Matcher awaitMarker(Process child) throws Exception {
    StringBuffer output = new StringBuffer();
    CompletableFuture<Matcher> marker = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  output.append(line).append('\n');
                  Matcher matcher = MARKER.matcher(line);
                  if (matcher.find()) {
                    marker.complete(matcher);
                    return;
                  }
                }
                marker.completeExceptionally(
                    new AssertionError("child JVM ended without the marker:\n" + output));
              } catch (IOException e) {
                marker.completeExceptionally(new UncheckedIOException(e));
              }
            },
            "killed-jvm-child-output");
    reader.setDaemon(true);
    reader.start();
    try {
      return marker.get(3, TimeUnit.MINUTES);
    } catch (TimeoutException e) {
      throw new AssertionError("no marker from the child JVM in time:\n" + output, e);
    }
  }

  /** The note of the committed row; a missing row fails the query's own check. */
  private static String survivorNote(EmbeddedPostgresServer server) throws SQLException {
    return EmbeddedPostgresSecurityTest.query(server, "SELECT note FROM survivor WHERE id = 1");
  }
}
