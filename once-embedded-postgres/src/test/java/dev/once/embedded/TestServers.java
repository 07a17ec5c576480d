package dev.once.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/** What the module's tests need beyond the public API, in short. */
public final class TestServers {

  private static final Log LOG = LogFactory.getLog(TestServers.class);

  private static Path bin;

  private TestServers() {}

  /**
   * The server on the directory, started if need be; {@code clean} wipes it first if not running.
   */
  public static EmbeddedPostgresServer obtain(Path dataDirectory, boolean clean) {
    return acquire(dataDirectory, 0, clean).server();
  }

  /** Like {@link #obtain}, on a given port (0: any) and saying whether this call started it. */
  public static EmbeddedPostgresServer.Acquisition acquire(
      Path dataDirectory, int port, boolean clean) {
    if (clean) {
      EmbeddedPostgresServer.wipeUnlessRunning(dataDirectory, LOG);
    }
    return EmbeddedPostgresServer.acquire(dataDirectory.toAbsolutePath().normalize(), port, LOG);
  }

  /** The server this JVM runs on a data directory, in any spelling, if any. */
  public static Optional<EmbeddedPostgresServer> find(Path dataDirectory) {
    return EmbeddedPostgresServer.find(dataDirectory);
  }

  /** Stops the server on a data directory now (fast shutdown); whether one was running. */
  public static boolean stop(Path dataDirectory) {
    Optional<EmbeddedPostgresServer> server = find(dataDirectory);
    server.ifPresent(EmbeddedPostgresServer::stop);
    return server.isPresent();
  }

  /** The postmaster's PID, line 1 of {@code postmaster.pid}. */
  public static long postmasterPid(EmbeddedPostgresServer server) {
    return LeftoverPostmaster.pid(server.dataDirectory()).orElseThrow();
  }

  /** Alive and not a zombie (which the JDK reports as alive). */
  public static boolean isRunning(ProcessHandle process) {
    return EmbeddedPostgresServer.isRunning(process);
  }

  /** The {@code bin} folder of a running server's binaries. */
  public static Path bin(EmbeddedPostgresServer server) {
    ProcessHandle postmaster = ProcessHandle.of(postmasterPid(server)).orElseThrow();
    return Path.of(postmaster.info().command().orElseThrow()).getParent();
  }

  /** The {@code bin} folder of the binaries, unpacked by a throw-away server if need be. */
  public static synchronized Path bin() {
    if (bin == null) {
      try {
        Path temporary = Files.createTempDirectory("once-pg-bin");
        bin = bin(obtain(temporary, false));
        stop(temporary);
        try (Stream<Path> tree = Files.walk(temporary)) {
          for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(path);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return bin;
  }
}
