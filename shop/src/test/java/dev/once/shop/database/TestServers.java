package dev.once.shop.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * What tests need of the JVM's embedded servers beyond what the shop itself uses: finding, starting
 * and stopping one by data directory, and wiping a data directory ({@code
 * shop.embedded-postgres.clean}, see {@link CleanEmbeddedPostgres}).
 */
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
      wipeUnlessRunning(dataDirectory);
    }
    return EmbeddedPostgresServer.acquire(dataDirectory.toAbsolutePath().normalize(), port, LOG);
  }

  /** The server this JVM runs on a data directory, in any spelling, if any. */
  public static Optional<EmbeddedPostgresServer> find(Path dataDirectory) {
    try {
      Path key = dataDirectory.toRealPath();
      synchronized (EmbeddedPostgresServer.SERVERS) {
        return Optional.ofNullable(EmbeddedPostgresServer.SERVERS.get(key));
      }
    } catch (IOException e) {
      return Optional.empty(); // a directory that does not exist has no server
    }
  }

  /** Stops the server on a data directory now (fast shutdown); whether one was running. */
  public static boolean stop(Path dataDirectory) {
    synchronized (EmbeddedPostgresServer.SERVERS) {
      Optional<EmbeddedPostgresServer> server = find(dataDirectory);
      server.ifPresent(
          s -> {
            EmbeddedPostgresServer.SERVERS.remove(s.dataDirectory());
            try {
              s.postgres().close();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
      return server.isPresent();
    }
  }

  /**
   * Empties the data directory unless this JVM already runs a server on it: after stopping what a
   * killed JVM left running on it, and only if it is a PostgreSQL cluster (or empty).
   */
  static void wipeUnlessRunning(Path dataDirectory) {
    synchronized (EmbeddedPostgresServer.SERVERS) {
      if (!Files.isDirectory(dataDirectory) || find(dataDirectory).isPresent()) {
        return;
      }
      try {
        Path directory = dataDirectory.toRealPath();
        LeftoverPostmaster.clear(directory, LOG);
        List<Path> paths;
        try (Stream<Path> tree = Files.walk(directory)) {
          paths = tree.filter(p -> !p.equals(directory)).toList();
        }
        if (!paths.isEmpty() && !Files.exists(directory.resolve("PG_VERSION"))) {
          throw new IllegalStateException(
              "Refusing to wipe '"
                  + directory
                  + "' for 'shop.embedded-postgres.clean=true': it is not a PostgreSQL data"
                  + " directory (no PG_VERSION). Check '"
                  + EmbeddedPostgresEnvironmentPostProcessor.DATA_DIR
                  + "'.");
        }
        LOG.info("Wiping the embedded PostgreSQL data directory " + directory);
        for (Path path : paths.stream().sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The postmaster's PID, line 1 of {@code postmaster.pid}. */
  public static long postmasterPid(EmbeddedPostgresServer server) {
    return LeftoverPostmaster.pid(server.dataDirectory()).orElseThrow();
  }

  /** Alive and not a zombie (which the JDK reports as alive). */
  public static boolean isRunning(ProcessHandle process) {
    return process.isAlive() && !LeftoverPostmaster.isZombie(process.pid());
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
