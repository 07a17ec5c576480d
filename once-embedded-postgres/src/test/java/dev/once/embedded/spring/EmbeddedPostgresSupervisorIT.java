package dev.once.embedded.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.RecordingLog;
import dev.once.embedded.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;

/**
 * The give-up path of {@link EmbeddedPostgresSupervisor}, on a server of its own: a data directory
 * that PostgreSQL refuses after the postmaster was killed ends in the exit action with status 1 and
 * an ERROR that says why. (The recovery itself: the shop's {@code EmbeddedPostgresRestartIT}.)
 */
class EmbeddedPostgresSupervisorIT {

  @TempDir Path temp;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void exitsWithStatusOneAndSaysWhyWhenTheRestartKeepsFailing() throws Exception {
    Path dataDirectory = temp.resolve("pgdata");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);
    List<Object> events = new CopyOnWriteArrayList<>();
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    RecordingLog log = new RecordingLog();
    EmbeddedPostgresSupervisor supervisor =
        new EmbeddedPostgresSupervisor(
            new EmbeddedPostgresSettings(
                true, dataDirectory.toString(), 0, "app", Duration.ofSeconds(2)),
            events::add,
            exit::complete,
            log.log());
    try {
      supervisor.start();
      // PostgreSQL reads PG_VERSION only when it starts: the restart will be refused.
      Files.writeString(server.dataDirectory().resolve("PG_VERSION"), "9\n");
      ProcessHandle.of(TestServers.postmasterPid(server)).orElseThrow().destroyForcibly();

      assertThat(exit.get(2, TimeUnit.MINUTES)).isEqualTo(1);
      // Logged before the exit action is called.
      String error =
          log.lines().stream().filter(line -> line.startsWith("ERROR: ")).findFirst().orElseThrow();
      assertThat(error)
          .contains(server.dataDirectory().toString())
          .contains("could not be restarted within PT2S (once.embedded-postgres.restart-timeout)")
          .contains("PostgreSQL said: FATAL:  database files are incompatible with server")
          .contains("Exiting with status 1");
      assertThat(events)
          .map(e -> (Object) ((AvailabilityChangeEvent<?>) e).getState())
          .containsExactly(ReadinessState.REFUSING_TRAFFIC);
    } finally {
      supervisor.stop();
      TestServers.stop(dataDirectory);
    }
  }
}
