package dev.once.verify.harness;

import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.RequestBytes;
import dev.once.verify.system.StartFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process a run starts (a shop, psp-simulator, a Kafka broker): its output, stderr included,
 * appended to a log file; a wait until it is ready that fails with the log's tail if it exits
 * first; a kill -9 as a crash would; a stop that asks first (SIGTERM) and kills after 20 s. The one
 * way once-verify starts and stops the processes of its runs.
 */
public final class ChildProcess implements AutoCloseable {
  /** How long a process may take to become ready. */
  public static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final String what;
  private final Process process;
  private final Path log;

  private ChildProcess(String what, ProcessBuilder builder, Path log) throws IOException {
    this.what = what;
    this.log = log;
    this.process = builder.start();
  }

  /** Whether a starting process is ready; an {@link IOException} means not yet. */
  public interface Ready {
    boolean ready() throws IOException;
  }

  /**
   * Starts {@code command} with {@code environment} added to this JVM's, its output appended to
   * {@code log}.
   *
   * @param what how errors name the process, e.g. {@code the shop}
   */
  public static ChildProcess start(
      String what, List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    return new ChildProcess(what, builder, log);
  }

  /**
   * The JVM option that starts a short-lived Java process (a shop to kill, a simulator, a broker)
   * in about half the CPU time: C1 alone, whose code never pays back C2's compiler threads in the
   * seconds to minutes such a process lives. Not for a shop whose throughput is measured.
   */
  public static final String QUICK_START = "-XX:TieredStopAtLevel=1";

  /** This JVM's {@code java} executable, for the processes that run on Java. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * Waits until {@code ready} says so; if the process exits first or is not ready within {@link
   * #START_TIMEOUT}, stops it and throws.
   */
  public void awaitReady(Ready ready) throws IOException, InterruptedException {
    try {
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw StartFailure.exited(what, process.exitValue(), log);
        }
        try {
          if (ready.ready()) {
            return;
          }
        } catch (IOException e) {
          // Not ready yet.
        }
        Thread.sleep(200); // polling a starting process; not a test
      }
      throw new IOException(
          what + " did not become ready within " + START_TIMEOUT + "; see " + log);
    } catch (IOException | RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  /**
   * Waits until a GET of {@code path} on {@code host:port} answers 200 (see {@link #awaitReady}).
   */
  public void awaitHttpOk(String host, int port, String path)
      throws IOException, InterruptedException {
    byte[] head = HttpRequest.head("GET", path, host + ":" + port);
    RequestBytes request = HttpRequest.write(new RequestBytes(), head, null);
    try (HttpConnection http = new HttpConnection(host, port, 5_000)) {
      awaitReady(() -> http.exchange(request).status() == 200);
    }
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  /** Whether the process still runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Kills the process with SIGKILL, as a crash would, and waits (30 s at most) until it is gone.
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /**
   * Stops the process (SIGTERM, then SIGKILL after 20 s) and waits for it; interrupted, it kills
   * the process at once and throws. Safe to repeat.
   */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (process.waitFor(20, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      throw e;
    }
    kill();
  }
}
