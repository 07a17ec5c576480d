package dev.once.shop.database;

import dev.once.shop.secrets.OwnerOnly;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The JVM-wide registry of embedded PostgreSQL servers: at most one per data directory, keyed by
 * its canonical path, so every Spring context of a test JVM (and any other caller) shares one
 * server.
 *
 * <p>Starting a server on a directory:
 *
 * <ol>
 *   <li>fails if another live process runs an embedded server on it;
 *   <li>stops a postmaster left running on it by a JVM that was killed ({@code kill -9}), see
 *       {@link LeftoverPostmaster};
 *   <li>with {@link EmbeddedPostgresSettings#clean()}, wipes it (only if it is empty or a
 *       PostgreSQL data directory);
 *   <li>makes it {@code rwx------} (refusing another user's directory);
 *   <li>starts the server as {@link EmbeddedPostgresServer#start} describes (initdb if the
 *       directory is empty; password authentication; localhost only), with a JVM shutdown hook that
 *       stops it with a fast shutdown.
 * </ol>
 *
 * <p>The programs come from {@link PostgresBinaries}, unpacked into a checked per-user cache.
 */
public final class EmbeddedPostgresServers {

  /** Bound on waiting for a fast shutdown (it checkpoints first), ours or a leftover's. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  /** Bound on startup, generous because crash recovery may replay WAL first. */
  static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  /** Guarded by itself; starts are serialised, which also keeps two starts off one directory. */
  private static final Map<Path, EmbeddedPostgresServer> SERVERS = new HashMap<>();

  private EmbeddedPostgresServers() {}

  /**
   * The outcome of {@link #acquire(EmbeddedPostgresSettings)}.
   *
   * @param server the running server
   * @param started {@code true} if this call started it, {@code false} if it was already running
   */
  public record Acquisition(EmbeddedPostgresServer server, boolean started) {}

  /**
   * Returns the server for the settings' data directory, starting it if this JVM has not yet.
   *
   * @param settings validated settings; {@code clean} only applies when the server is started
   * @return the running server and whether this call started it
   * @throws IllegalStateException if the server cannot be started (the message says why), or if it
   *     already runs on another port than the explicitly requested one
   */
  public static Acquisition acquire(EmbeddedPostgresSettings settings) {
    return acquire(settings, LogFactory.getLog(EmbeddedPostgresServers.class));
  }

  /**
   * Like {@link #acquire(EmbeddedPostgresSettings)}, reporting to the given log. Spring Boot's
   * logging is not initialised while environment post-processors run, so the post-processor passes
   * a deferred log: otherwise a warning about a leftover server would be lost.
   *
   * @param settings validated settings; {@code clean} only applies when the server is started
   * @param log where to report what was found and done
   * @return the running server and whether this call started it
   */
  public static Acquisition acquire(EmbeddedPostgresSettings settings, Log log) {
    synchronized (SERVERS) {
      Path dataDirectory = canonicalDirectory(settings.dataDirectory());
      EmbeddedPostgresServer running = SERVERS.get(dataDirectory);
      if (running != null) {
        if (settings.port() != 0 && settings.port() != running.port()) {
          throw new IllegalStateException(
              "The embedded PostgreSQL on "
                  + dataDirectory
                  + " already runs on port "
                  + running.port()
                  + " in this JVM, but '"
                  + EmbeddedPostgresSettings.PORT
                  + "' asks for "
                  + settings.port());
        }
        return new Acquisition(running, false);
      }
      EmbeddedPostgresServer started = start(dataDirectory, settings, log);
      SERVERS.put(dataDirectory, started);
      return new Acquisition(started, true);
    }
  }

  /**
   * Like {@link #acquire(EmbeddedPostgresSettings)}, returning just the server.
   *
   * @param settings validated settings
   * @return the running server
   */
  public static EmbeddedPostgresServer obtain(EmbeddedPostgresSettings settings) {
    return acquire(settings).server();
  }

  /**
   * The server this JVM runs on a data directory, if any.
   *
   * @param dataDirectory the data directory, in any spelling
   * @return the running server, or empty
   */
  public static Optional<EmbeddedPostgresServer> find(Path dataDirectory) {
    Path key;
    try {
      key = dataDirectory.toRealPath();
    } catch (IOException e) {
      return Optional.empty(); // a directory that does not exist has no server
    }
    synchronized (SERVERS) {
      return Optional.ofNullable(SERVERS.get(key));
    }
  }

  /**
   * Stops the server on a data directory now (fast shutdown), for tests and tools. Applications
   * need not call this: the JVM shutdown hook stops every server, and other Spring contexts may
   * still be using it.
   *
   * @param dataDirectory the data directory, in any spelling
   * @return {@code true} if a server was running and has been stopped
   */
  public static boolean stop(Path dataDirectory) {
    synchronized (SERVERS) {
      Optional<EmbeddedPostgresServer> server = find(dataDirectory);
      if (server.isEmpty()) {
        return false;
      }
      SERVERS.remove(server.get().dataDirectory());
      try {
        server.get().close();
      } catch (IOException e) {
        throw new UncheckedIOException("Could not stop " + server.get(), e);
      }
      return true;
    }
  }

  private static Path canonicalDirectory(Path dataDirectory) {
    try {
      // Private from the start; an existing one is checked (and tightened) in start().
      Files.createDirectories(dataDirectory, OwnerOnly.DIRECTORY);
      // The registry key and the path PostgreSQL sees: symlinks and "a/../b" spellings collapse.
      return dataDirectory.toRealPath();
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot create the embedded PostgreSQL data directory '"
              + dataDirectory
              + "' (property '"
              + EmbeddedPostgresSettings.DATA_DIR
              + "'): "
              + e,
          e);
    }
  }

  private static EmbeddedPostgresServer start(
      Path dataDirectory, EmbeddedPostgresSettings settings, Log log) {
    PostgresBinaries binaries = PostgresBinaries.prepare(PostgresBinaries.defaultCache(), log);
    LeftoverPostmaster.clear(dataDirectory, binaries, STOP_TIMEOUT, log);
    if (settings.clean()) {
      wipe(dataDirectory, log);
    }
    checkContents(dataDirectory);
    OwnerOnly.directory(
        dataDirectory,
        "the embedded PostgreSQL data directory ('" + EmbeddedPostgresSettings.DATA_DIR + "')",
        log);
    int port = settings.port() == 0 ? freePort() : checkPortFree(settings.port());
    Path logFile = dataDirectory.resolve(EmbeddedPostgresServer.LOG_FILE);
    long logOffset = logFile.toFile().length(); // 0 if absent: what this start appends is the tail
    EmbeddedPostgresServer server;
    try {
      server = EmbeddedPostgresServer.start(dataDirectory, port, binaries, log);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "Could not start the embedded PostgreSQL on "
              + dataDirectory
              + describeCluster(dataDirectory)
              + ": "
              + e.getMessage()
              + ". Set '"
              + EmbeddedPostgresSettings.DATASOURCE_URL
              + "' to use another server. PostgreSQL's output ("
              + logFile
              + "):\n"
              + tail(logFile, logOffset, 30),
          e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::stopAtExit, "embedded-postgres-stop"));
    return server;
  }

  /** The last lines appended since {@code offset}, for an error message. */
  private static String tail(Path file, long offset, int maxLines) {
    try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(offset, in.length() - 64 * 1024); // the end is what explains it
      byte[] bytes = new byte[(int) Math.max(0, in.length() - start)];
      in.seek(start);
      in.readFully(bytes);
      List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
      return String.join("\n", lines.subList(Math.max(0, lines.size() - maxLines), lines.size()));
    } catch (IOException e) {
      return "(cannot read it: " + e + ")";
    }
  }

  /** Empties the directory, refusing anything that does not look like a PostgreSQL cluster. */
  private static void wipe(Path dataDirectory, Log log) {
    if (isEmpty(dataDirectory)) {
      return;
    }
    if (!Files.exists(dataDirectory.resolve("PG_VERSION"))) {
      throw new IllegalStateException(
          "Refusing to wipe '"
              + dataDirectory
              + "' for '"
              + EmbeddedPostgresSettings.CLEAN
              + "=true': it is not a PostgreSQL data directory (no PG_VERSION). Check '"
              + EmbeddedPostgresSettings.DATA_DIR
              + "'.");
    }
    log.info("Wiping the embedded PostgreSQL data directory " + dataDirectory);
    try (Stream<Path> tree = Files.walk(dataDirectory)) {
      List<Path> paths = tree.sorted(Comparator.reverseOrder()).toList();
      for (Path path : paths) {
        if (!path.equals(dataDirectory)) {
          Files.delete(path);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("Could not wipe " + dataDirectory + ": " + e, e);
    }
  }

  /** Turns the obscure initdb failure on a non-empty directory into a clear message. */
  private static void checkContents(Path dataDirectory) {
    if (isEmpty(dataDirectory) || Files.exists(dataDirectory.resolve("postgresql.conf"))) {
      return;
    }
    String what =
        Files.exists(dataDirectory.resolve("PG_VERSION"))
            ? "an incomplete PostgreSQL data directory (no postgresql.conf; was initdb"
                + " interrupted?): delete it or set '"
                + EmbeddedPostgresSettings.CLEAN
                + "=true'"
            : "not empty and not a PostgreSQL data directory: point '"
                + EmbeddedPostgresSettings.DATA_DIR
                + "' at an empty or new directory";
    throw new IllegalStateException(
        "Invalid value '"
            + dataDirectory
            + "' for property '"
            + EmbeddedPostgresSettings.DATA_DIR
            + "': it is "
            + what
            + ".");
  }

  /**
   * Fails early if the port is taken, with a message naming the property, rather than with
   * PostgreSQL's "could not bind" in its log.
   */
  private static int checkPortFree(int port) {
    try {
      // Binding succeeds only on a free port; it is released again at once.
      new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
      return port;
    } catch (IOException e) {
      throw new IllegalStateException(
          "Invalid value '"
              + port
              + "' for property '"
              + EmbeddedPostgresSettings.PORT
              + "': the port is already in use on localhost ("
              + e.getMessage()
              + "). Use another port or 0 for any free port.",
          e);
    }
  }

  /** A port that is free now (another process may take it before PostgreSQL binds it). */
  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot find a free port on localhost: " + e, e);
    }
  }

  static boolean isEmpty(Path directory) {
    try (Stream<Path> entries = Files.list(directory)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot list " + directory + ": " + e, e);
    }
  }

  private static String describeCluster(Path dataDirectory) {
    try {
      String version =
          Files.readString(dataDirectory.resolve("PG_VERSION"), StandardCharsets.UTF_8).strip();
      return " (cluster created by PostgreSQL " + version + ")";
    } catch (IOException e) {
      return "";
    }
  }
}
