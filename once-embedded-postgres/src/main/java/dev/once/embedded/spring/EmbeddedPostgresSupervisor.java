package dev.once.embedded.spring;

import static dev.once.embedded.EmbeddedPostgresProperties.RESTART_TIMEOUT;
import static dev.once.embedded.spring.EmbeddedPostgresStarter.PROPERTY_SOURCE_NAME;

import dev.once.embedded.EmbeddedPostgresServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Restarts the embedded PostgreSQL when its postmaster dies (looked at every second): readiness is
 * {@code REFUSING_TRAFFIC} until {@link EmbeddedPostgresServer#restartAfterCrash} has started it
 * again on the same data directory and port; crash recovery keeps every committed transaction. It
 * retries with backoff up to {@code once.embedded-postgres.restart-timeout} (while processes of the
 * dead server still work in the directory, say); then it logs why at ERROR and exits the JVM with
 * status 1, for a process supervisor to restart the service. A stop while the context closes or the
 * JVM shuts down (zonky's hook) is no crash. A bean of {@link EmbeddedPostgresAutoConfiguration};
 * it does nothing in a context whose database {@link EmbeddedPostgresStarter} did not start.
 */
public class EmbeddedPostgresSupervisor implements SmartLifecycle {

  private final Path dataDirectory; // null: not started by EmbeddedPostgresStarter, nothing to do
  private final Duration restartTimeout;
  private final ApplicationEventPublisher events;
  private final IntConsumer exit;
  private final Log log;
  private volatile CountDownLatch stopped;

  /**
   * The supervisor of the context's embedded server; giving up exits the JVM.
   *
   * @param context the context, whose readiness it changes and which it closes on giving up
   * @throws IOException if the data directory is gone
   */
  public EmbeddedPostgresSupervisor(ConfigurableApplicationContext context) throws IOException {
    this(
        context.getEnvironment().getPropertySources().contains(PROPERTY_SOURCE_NAME)
            ? EmbeddedPostgresSettings.of(context.getEnvironment())
            : null,
        context,
        code -> System.exit(SpringApplication.exit(context, () -> code)),
        LogFactory.getLog(EmbeddedPostgresSupervisor.class));
  }

  /**
   * With what to call on giving up (the status), instead of ending the JVM, and its log; null
   * settings for a supervisor that does nothing.
   */
  EmbeddedPostgresSupervisor(
      EmbeddedPostgresSettings settings,
      ApplicationEventPublisher events,
      IntConsumer exit,
      Log log)
      throws IOException {
    this.dataDirectory = settings == null ? null : settings.dataDirectory().toRealPath();
    this.restartTimeout = settings == null ? Duration.ZERO : settings.restartTimeout();
    this.events = events;
    this.exit = exit;
    this.log = log;
  }

  @Override
  public synchronized void start() {
    if (dataDirectory == null) {
      return;
    }
    ProcessHandle postmaster = server().postmaster().orElseThrow(); // just started
    CountDownLatch stop = new CountDownLatch(1);
    stopped = stop;
    Thread thread = new Thread(() -> supervise(postmaster, stop), "embedded-postgres-supervisor");
    thread.setDaemon(true);
    thread.start();
  }

  /** No restart from now on; does not wait (it may be called from the supervising thread). */
  @Override
  public synchronized void stop() {
    if (stopped != null) {
      stopped.countDown();
      stopped = null;
    }
  }

  @Override
  public boolean isRunning() {
    return stopped != null;
  }

  private EmbeddedPostgresServer server() {
    return EmbeddedPostgresServer.find(dataDirectory)
        .orElseThrow(() -> new IllegalStateException("no embedded server on " + dataDirectory));
  }

  private void supervise(ProcessHandle postmaster, CountDownLatch stop) {
    try {
      while (!stop.await(1, TimeUnit.SECONDS)) {
        if (!EmbeddedPostgresServer.isRunning(postmaster) && !shuttingDown()) {
          postmaster = restart(postmaster, stop);
          if (postmaster == null) {
            return;
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The new postmaster, or null if stopped or given up. */
  private ProcessHandle restart(ProcessHandle dead, CountDownLatch stop)
      throws InterruptedException {
    log.warn(
        "The embedded PostgreSQL on %s (PID %d) died; refusing traffic while it restarts"
            .formatted(dataDirectory, dead.pid()));
    AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
    long logSize = dataDirectory.resolve(EmbeddedPostgresServer.LOG_FILE).toFile().length();
    long deadline = System.nanoTime() + restartTimeout.toNanos();
    long backoff = 100; // milliseconds, doubled up to 2 s
    while (true) {
      String problem;
      try {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        ProcessHandle postmaster = server().restartAfterCrash(dead, left, log);
        log.info(
            "The embedded PostgreSQL on %s runs again (PID %d), after crash recovery"
                .formatted(dataDirectory, postmaster.pid()));
        AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        return postmaster;
      } catch (IOException | RuntimeException e) {
        problem = e.getMessage();
      }
      if (stop.getCount() == 0 || shuttingDown()) {
        return null;
      }
      if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) - deadline > 0) {
        String why =
            lastFatal(logSize).map(line -> problem + "; PostgreSQL said: " + line).orElse(problem);
        log.error(
            ("The embedded PostgreSQL on %s could not be restarted within %s (%s): %s. See %s."
                    + " Exiting with status 1, for a supervisor to restart the service.")
                .formatted(
                    dataDirectory,
                    restartTimeout,
                    RESTART_TIMEOUT,
                    why,
                    EmbeddedPostgresServer.LOG_FILE));
        exit.accept(1);
        return null;
      }
      if (stop.await(backoff, TimeUnit.MILLISECONDS)) {
        return null;
      }
      backoff = Math.min(2 * backoff, 2000);
    }
  }

  /** Whether the JVM's shutdown hooks run (zonky's stops the server). */
  private static boolean shuttingDown() {
    try {
      Thread probe = new Thread(() -> {});
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /** The last FATAL or PANIC line that PostgreSQL logged since {@code offset}. */
  private Optional<String> lastFatal(long offset) {
    try (InputStream in =
        Files.newInputStream(dataDirectory.resolve(EmbeddedPostgresServer.LOG_FILE))) {
      in.skipNBytes(offset);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> line.contains("FATAL:") || line.contains("PANIC:"))
          .reduce((first, second) -> second)
          .map(line -> line.substring(Math.max(line.indexOf("FATAL:"), line.indexOf("PANIC:"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
