package dev.once.shop.database;

import static dev.once.shop.database.EmbeddedPostgresSettings.DATA_DIR;
import static dev.once.shop.database.EmbeddedPostgresSettings.invalidValue;

import dev.once.shop.secrets.OwnerOnly;
import dev.once.shop.secrets.SecretFile;
import dev.once.shop.web.Ids;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.logging.Log;

/**
 * A running embedded PostgreSQL server, and the JVM-wide registry of them: one per data directory
 * (by its canonical path), shared by every Spring context of the JVM and stopped (fast shutdown) by
 * zonky's JVM shutdown hook, never when a context closes.
 *
 * @param dataDirectory the canonical data directory
 * @param port the TCP port on {@code localhost}
 * @param password the superuser's, from {@value #PASSWORD_FILE}; never in {@link #toString()}
 * @param postgres zonky's handle
 */
public record EmbeddedPostgresServer(
    Path dataDirectory, int port, String password, EmbeddedPostgres postgres) {

  /** The superuser created by initdb. */
  public static final String USERNAME = "postgres";

  /** The superuser's password file in the data directory. */
  public static final String PASSWORD_FILE = "postgres.password";

  /** initdb's database, for maintenance. */
  public static final String DATABASE = "postgres";

  /** The server's log in the data directory. */
  public static final String LOG_FILE = "postgres.log";

  /** Written before every start, so no rule added by hand, or an older {@code trust}, lasts. */
  static final String PG_HBA =
      """
      # Written by the shop (dev.once.shop.database) before every start; edits are overwritten.
      # Every connection needs a password (SCRAM-SHA-256); the server listens on localhost only.
      local all all scram-sha-256
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;

  /**
   * On the server's command line after zonky's {@code -F} (no fsync) and {@code
   * synchronous_commit=off}, so they win over those, {@code postgresql.conf} and {@code ALTER
   * SYSTEM}.
   */
  private static final Map<String, String> SERVER_SETTINGS =
      Map.of(
          "listen_addresses", "localhost",
          // No Unix-domain socket: its folder would be another door to keep private.
          "unix_socket_directories", "''",
          "password_encryption", "scram-sha-256",
          // This data is kept, so a committed row must survive a crash.
          "fsync", "on",
          "synchronous_commit", "on",
          // The server writes its log itself (mode 0600), whoever reads its output.
          "logging_collector", "on",
          "log_directory", ".",
          "log_filename", LOG_FILE,
          "log_rotation_size", "0");

  private static final Pattern PASSWORD = Pattern.compile("[A-Za-z0-9_-]{43,}");

  /** The servers of this JVM; starts are serialised on it. */
  static final Map<Path, EmbeddedPostgresServer> SERVERS = new HashMap<>();

  /** zonky's folder name for the binaries it unpacked: {@code PG-<MD5 of the archive>}. */
  private static volatile String unpackedAs;

  /** zonky's archive, under a key of our own in zonky's cache of unpacked binaries. */
  private static final PgBinaryResolver BINARIES =
      (system, machine) -> {
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine)) {
          byte[] archive = in.readAllBytes();
          unpackedAs = "PG-" + DigestUtils.md5Hex(archive);
          return new ByteArrayInputStream(archive);
        }
      };

  /**
   * The outcome of {@link #acquire}.
   *
   * @param server the running server
   * @param started {@code true} if this call started it, {@code false} if it was already running
   */
  public record Acquisition(EmbeddedPostgresServer server, boolean started) {}

  /**
   * The server on the settings' data directory, started if this JVM has not yet: {@link
   * LeftoverPostmaster} refuses a directory that a live process uses and stops a server that a
   * killed JVM left on it; a directory that is neither empty nor a cluster, or another user's, is
   * refused, a looser one made {@code rwx------}. Then zonky unpacks the binaries into the checked
   * {@link #cache}, runs initdb on an empty directory ({@code reject} rules: no way in yet), locks
   * the directory ({@code epg-lock}), calls {@link #secure} and starts the server with {@link
   * #SERVER_SETTINGS}.
   *
   * @param settings checked settings
   * @param log where to report what was found and done (a deferred log while Boot starts)
   * @return the running server and whether this call started it
   * @throws IllegalStateException if it cannot be started (the message says why), or already runs
   *     on another port than the one asked for
   */
  public static Acquisition acquire(EmbeddedPostgresSettings settings, Log log) {
    synchronized (SERVERS) {
      Path dataDirectory = settings.dataDirectory();
      try {
        // Private from the start; an existing one is checked (and tightened) below.
        dataDirectory = Files.createDirectories(dataDirectory, OwnerOnly.DIRECTORY).toRealPath();
      } catch (IOException e) {
        throw new IllegalStateException(
            "Cannot create '%s' (%s): %s".formatted(dataDirectory, DATA_DIR, e), e);
      }
      EmbeddedPostgresServer running = SERVERS.get(dataDirectory);
      if (running != null && settings.port() != 0 && settings.port() != running.port()) {
        throw new IllegalStateException(
            "The embedded PostgreSQL on %s already runs on port %d in this JVM, but '%s' asks for %d"
                .formatted(
                    dataDirectory, running.port(), EmbeddedPostgresSettings.PORT, settings.port()));
      }
      if (running == null) {
        SERVERS.put(dataDirectory, start(dataDirectory, settings.port(), log));
      }
      return new Acquisition(SERVERS.get(dataDirectory), running == null);
    }
  }

  private static EmbeddedPostgresServer start(Path dataDirectory, int port, Log log) {
    Path cache = cache(cacheHome(), log);
    LeftoverPostmaster.clear(dataDirectory, log);
    checkContents(dataDirectory);
    OwnerOnly.directory(
        dataDirectory, "the embedded PostgreSQL data directory ('" + DATA_DIR + "')", log);
    checkPortFree(port);
    boolean initialised = Files.exists(dataDirectory.resolve("postgresql.conf"));
    // initdb needs an empty directory: a new cluster's password file is written by secure().
    String password = initialised ? password(dataDirectory.resolve(PASSWORD_FILE)) : newPassword();
    try {
      EmbeddedPostgres.Builder builder =
          builder(cache)
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPort(port)
              // Generous: crash recovery may replay WAL first.
              .setPGStartupWait(Duration.ofSeconds(60))
              // After zonky's "-A trust", so they win.
              .setLocaleConfig("locale", "C")
              .setLocaleConfig("auth", "reject")
              .setConnectConfig("password", password)
              // initdb's output (to zonky's log) cannot go into the directory it initialises.
              .setOutputRedirector(initialised ? toLog(dataDirectory, log) : Redirect.PIPE)
              .setDataDirectoryCustomizer(d -> secure(dataDirectory, password, cache, log));
      SERVER_SETTINGS.forEach(builder::setServerConfig);
      EmbeddedPostgres postgres = builder.start();
      return new EmbeddedPostgresServer(dataDirectory, postgres.getPort(), password, postgres);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "Could not start the embedded PostgreSQL on %s: %s. Set '%s' to use another server."
                  .formatted(dataDirectory, e.getMessage(), EmbeddedPostgresSettings.DATASOURCE_URL)
              + " PostgreSQL's log: "
              + dataDirectory.resolve(LOG_FILE),
          e);
    }
  }

  /**
   * zonky's builder, its working folder being the checked {@code cache} and not {@code
   * /tmp/embedded-pg}: zonky creates that folder, opens it to everyone, stops and deletes "stale"
   * clusters in it (which anyone could plant in a shared folder) and unpacks the binaries into it.
   *
   * @param cache the checked cache folder, from {@link #cache}
   * @return a builder with zonky's defaults otherwise
   */
  static EmbeddedPostgres.Builder builder(Path cache) {
    String previous = System.setProperty("ot.epg.working-dir", cache.toString());
    try {
      return EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(cache.toFile())
          .setPgBinaryResolver(BINARIES);
    } finally {
      if (previous == null) {
        System.clearProperty("ot.epg.working-dir");
      } else {
        System.setProperty("ot.epg.working-dir", previous);
      }
    }
  }

  /**
   * After initdb, before every start, while nothing listens: {@link #PG_HBA} replaces {@code
   * pg_hba.conf}; the superuser gets the password of {@value #PASSWORD_FILE} in single-user mode,
   * which also upgrades a cluster of an older version (trust, no password); the binaries are made
   * the owner's only again.
   */
  private static void secure(Path dataDirectory, String password, Path cache, Log log) {
    try {
      Files.writeString(dataDirectory.resolve("pg_hba.conf"), PG_HBA);
      if (!password(dataDirectory.resolve(PASSWORD_FILE), () -> password).equals(password)) {
        throw new IllegalStateException(PASSWORD_FILE + " changed while the server started");
      }
      Path binaries = cache.resolve(unpackedAs);
      // exit_on_error: exit non-zero on an error. log_min_error_statement=panic: never print the
      // statement, which holds the password.
      run(
          toLog(dataDirectory, log),
          "ALTER ROLE " + USERNAME + " PASSWORD '" + password + "'\n",
          binaries.resolve("bin/postgres"),
          "--single -c password_encryption=scram-sha-256 -c exit_on_error=on"
              + " -c log_min_error_statement=panic",
          dataDirectory,
          DATABASE);
      try (Stream<Path> tree = Stream.concat(Stream.of(cache), Files.walk(binaries))) {
        for (Path path : tree.filter(p -> !Files.isSymbolicLink(p)).toList()) {
          Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
          if (permissions.removeAll(OwnerOnly.GROUP_OR_OTHERS)) {
            Files.setPosixFilePermissions(path, permissions);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Redirect toLog(Path dataDirectory, Log log) {
    Path logFile = dataDirectory.resolve(LOG_FILE);
    return Redirect.appendTo(OwnerOnly.file(logFile, "the PostgreSQL log", log).toFile());
  }

  /**
   * {@code <cache home>/once/postgres}, checked top down before zonky uses it: the current user's
   * and {@code rwx------} (a looser one is tightened with a warning, another user's refused).
   */
  static Path cache(Path cacheHome, Log log) {
    String what = "the PostgreSQL binaries cache";
    Path once = OwnerOnly.directory(cacheHome.resolve("once"), what, log);
    return OwnerOnly.directory(once.resolve("postgres"), what, log);
  }

  /** {@code $XDG_CACHE_HOME} if it is an absolute path (as XDG asks), else {@code ~/.cache}. */
  static Path cacheHome() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    return xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
        ? Path.of(xdg)
        : Path.of(System.getProperty("user.home"), ".cache");
  }

  /**
   * The password in a file only the current OS user can read ({@link SecretFile}), created if
   * missing: 256 random bits as 43 URL-safe Base64 characters, which need no quoting anywhere.
   *
   * @throws IllegalStateException if the file cannot be trusted, read or created
   */
  static String password(Path file) {
    return password(file, EmbeddedPostgresServer::newPassword);
  }

  private static String password(Path file, Supplier<String> generator) {
    String remedy = "Delete it to have a new password generated.";
    return SecretFile.readOrCreate(file, generator, PASSWORD.asMatchPredicate(), "password", remedy)
        .secret();
  }

  private static String newPassword() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Ids.randomBytes(32));
  }

  /**
   * Runs a PostgreSQL program on a data directory to its end, bounded; as root, where PostgreSQL
   * refuses to run, in a user namespace ({@code unshare -U}), as zonky does.
   *
   * @param arguments the first arguments, separated by single spaces; then {@code -D
   *     <dataDirectory>} and {@code more}
   * @throws IOException if it cannot be started, fails, or does not end within 2 minutes
   */
  static void run(
      Redirect output,
      String input,
      Path program,
      String arguments,
      Path dataDirectory,
      String... more)
      throws IOException {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      command.addAll(List.of("unshare", "-U"));
    }
    command.add(program.toString());
    command.addAll(List.of(arguments.split(" ")));
    command.addAll(List.of("-D", dataDirectory.toString()));
    command.addAll(List.of(more));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output).start();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(input.getBytes(StandardCharsets.UTF_8));
    }
    try {
      boolean ended = process.waitFor(2, TimeUnit.MINUTES);
      if (!ended || process.exitValue() != 0) {
        throw new IOException(
            program + (ended ? " failed, exit " + process.exitValue() : " did not end in time"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted waiting for " + program, e);
    } finally {
      process.destroyForcibly(); // if it is still running
    }
  }

  /** Turns initdb's obscure failure on a non-empty directory into a clear message. */
  private static void checkContents(Path dataDirectory) {
    try (Stream<Path> entries = Files.list(dataDirectory)) {
      if (entries.findAny().isEmpty() || Files.exists(dataDirectory.resolve("postgresql.conf"))) {
        return;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException(
        invalidValue(
            DATA_DIR,
            dataDirectory,
            Files.exists(dataDirectory.resolve("PG_VERSION"))
                ? "it is an incomplete PostgreSQL data directory (no postgresql.conf; was initdb"
                    + " interrupted?): delete it"
                : "it is not empty and not a PostgreSQL data directory: use an empty or new one"));
  }

  /** Fails early, naming the property, rather than with PostgreSQL's "could not bind". */
  private static void checkPortFree(int port) {
    try {
      if (port != 0) {
        new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          invalidValue(
              EmbeddedPostgresSettings.PORT,
              port,
              "the port is already in use on localhost (%s). Use another port or 0 for any free port."
                  .formatted(e.getMessage())));
    }
  }

  /** The JDBC URL of a database on this server (the name is URL-encoded), without credentials. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:%d/%s"
        .formatted(port, URLEncoder.encode(database, StandardCharsets.UTF_8));
  }

  /** The JDBC URL of {@value #DATABASE}, without credentials. */
  public String jdbcUrl() {
    return jdbcUrl(DATABASE);
  }

  /** The superuser to connect as, {@value #USERNAME}. */
  public String username() {
    return USERNAME;
  }

  /** The server's log, {@value #LOG_FILE} in the data directory, readable by the owner only. */
  public Path logFile() {
    return dataDirectory.resolve(LOG_FILE);
  }

  @Override
  public String toString() {
    return "EmbeddedPostgresServer[" + dataDirectory + ", port " + port + "]";
  }
}
