package dev.once.shop.database;

import static dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.PROPERTY_SOURCE_NAME;
import static dev.once.shop.database.LeftoverPostmaster.PID_FILE;

import dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.stereotype.Component;

/**
 * Restarts the embedded PostgreSQL when its postmaster dies (looked at every second): readiness is
 * {@code REFUSING_TRAFFIC} until {@code pg_ctl restart} has started it again on the same data
 * directory and port, with the command line it wrote to {@code postmaster.opts}; crash recovery
 * keeps every committed transaction. It first waits until no process of the dead server works in
 * the directory (their shared memory would stop the start), retrying with backoff up to {@value
 * #TIMEOUT}; then it logs why at ERROR and exits the JVM with status 1. A stop while the context
 * closes or the JVM shuts down (zonky's hook) is no crash.
 */
@Component
@Conditional(EmbeddedPostgresSupervisor.Embedded.class)
class EmbeddedPostgresSupervisor implements SmartLifecycle {

  private static final String TIMEOUT = "shop.embedded-postgres.restart-timeout";

  private static final Log LOG = LogFactory.getLog(EmbeddedPostgresSupervisor.class);

  private final Path dataDirectory;
  private final Duration restartTimeout;
  private final ApplicationEventPublisher events;
  private final IntConsumer exit;
  private volatile CountDownLatch stopped;

  @Autowired
  EmbeddedPostgresSupervisor(ConfigurableApplicationContext context) throws IOException {
    this(
        Binder.get(context.getEnvironment()).bindOrCreate("shop.embedded-postgres", Settings.class),
        context,
        code -> System.exit(SpringApplication.exit(context, () -> code)));
  }

  /** With what to call on giving up (the status), instead of ending the JVM. */
  EmbeddedPostgresSupervisor(Settings settings, ApplicationEventPublisher events, IntConsumer exit)
      throws IOException {
    this.dataDirectory = settings.dataDirectory().toRealPath();
    this.restartTimeout = settings.restartTimeout();
    this.events = events;
    this.exit = exit;
  }

  @Override
  public synchronized void start() {
    ProcessHandle postmaster = postmaster().orElseThrow(); // just started
    Path pgCtl = Path.of(postmaster.info().command().orElseThrow()).resolveSibling("pg_ctl");
    CountDownLatch stop = new CountDownLatch(1);
    stopped = stop;
    Thread thread =
        new Thread(() -> supervise(postmaster, pgCtl, stop), "embedded-postgres-supervisor");
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

  private void supervise(ProcessHandle postmaster, Path pgCtl, CountDownLatch stop) {
    try {
      while (!stop.await(1, TimeUnit.SECONDS)) {
        if (!running(postmaster) && !shuttingDown()) {
          postmaster = restart(postmaster, pgCtl, stop);
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
  private ProcessHandle restart(ProcessHandle dead, Path pgCtl, CountDownLatch stop)
      throws InterruptedException {
    LOG.warn(
        "The embedded PostgreSQL on %s (PID %d) died; refusing traffic while it restarts"
            .formatted(dataDirectory, dead.pid()));
    AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
    long logSize = dataDirectory.resolve(EmbeddedPostgresServer.LOG_FILE).toFile().length();
    long deadline = System.nanoTime() + restartTimeout.toNanos();
    long backoff = 100; // milliseconds, doubled up to 2 s
    while (true) {
      String problem;
      try {
        ProcessHandle postmaster = restartOnce(dead, pgCtl, deadline);
        LOG.info(
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
        LOG.error(
            ("The embedded PostgreSQL on %s could not be restarted within %s (%s): %s. See %s."
                    + " Exiting with status 1, for a supervisor to restart the shop.")
                .formatted(
                    dataDirectory, restartTimeout, TIMEOUT, why, EmbeddedPostgresServer.LOG_FILE));
        exit.accept(1);
        return null;
      }
      if (stop.await(backoff, TimeUnit.MILLISECONDS)) {
        return null;
      }
      backoff = Math.min(2 * backoff, 2000);
    }
  }

  private ProcessHandle restartOnce(ProcessHandle dead, Path pgCtl, long deadline)
      throws IOException {
    synchronized (EmbeddedPostgresServer.SERVERS) { // one restart per JVM, whichever context
      Optional<ProcessHandle> current = postmaster().filter(p -> !p.equals(dead));
      if (current.isPresent()) {
        return current.get(); // another context's supervisor restarted it
      }
      Path pidFile = dataDirectory.resolve(PID_FILE);
      List<Long> left =
          ProcessHandle.allProcesses()
              .filter(p -> running(p) && LeftoverPostmaster.runsIn(p, pidFile).orElse(false))
              .map(ProcessHandle::pid)
              .toList();
      if (!left.isEmpty()) {
        throw new IllegalStateException("processes of the dead server still run: " + left);
      }
      if (LeftoverPostmaster.pid(dataDirectory)
          .flatMap(ProcessHandle::of)
          .isPresent()) { // a zombie, or the PID reused
        Files.deleteIfExists(pidFile); // PostgreSQL would refuse; nothing works in the directory
      }
      long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
      EmbeddedPostgresServer.run(dataDirectory, LOG, "", pgCtl, "restart -w -t " + seconds);
      return postmaster()
          .orElseThrow(() -> new IllegalStateException("no postmaster after pg_ctl"));
    }
  }

  private Optional<ProcessHandle> postmaster() {
    return LeftoverPostmaster.pid(dataDirectory)
        .flatMap(ProcessHandle::of)
        .filter(EmbeddedPostgresSupervisor::running);
  }

  private static boolean running(ProcessHandle process) {
    return process.isAlive() && !LeftoverPostmaster.isZombie(process.pid());
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

  /** Only where the shop started the embedded server. */
  static class Embedded implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      return context.getEnvironment() instanceof ConfigurableEnvironment environment
          && environment.getPropertySources().contains(PROPERTY_SOURCE_NAME);
    }
  }
}
