package dev.once.shop.database;

import static dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.DATASOURCE_URL;
import static dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.DATA_DIR;
import static dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.PORT;
import static dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor.invalidValue;

import dev.once.shop.persistence.Ids;
import dev.once.shop.secrets.OwnerOnly;
import dev.once.shop.secrets.SecretFile;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.stream.Stream;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.logging.Log;

/**
 * A running embedded PostgreSQL server, and the JVM's registry of them: one per data directory (by
 * its canonical path), shared by every Spring context, stopped (fast shutdown) by zonky's shutdown
 * hook. {@link #start} checks the data directory, the port and the binaries' {@link #cache} before
 * zonky unpacks, runs initdb, locks the directory ({@code epg-lock}) and starts the server.
 *
 * @param dataDirectory the canonical data directory
 * @param port the TCP port on {@code localhost}
 * @param password the superuser's, from {@value #PASSWORD_FILE}; never in {@link #toString()}
 */
public record EmbeddedPostgresServer(
    Path dataDirectory, int port, String password, EmbeddedPostgres postgres) {

  /** The superuser made by initdb, its password file, its database, and the server's log. */
  public static final String USERNAME = "postgres",
      PASSWORD_FILE = "postgres.password",
      DATABASE = "postgres",
      LOG_FILE = "postgres.log";

  /** Written before every start, so no rule added by hand, or an older {@code trust}, lasts. */
  static final String PG_HBA =
      """
      # Written by the shop (dev.once.shop.database) before every start; edits are overwritten.
      # Every connection needs a password (SCRAM-SHA-256); the server listens on localhost only.
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;

  /**
   * On the command line after zonky's {@code -F} (no fsync) and {@code synchronous_commit=off}, so
   * they win over those, {@code postgresql.conf} and {@code ALTER SYSTEM}: no Unix-domain socket
   * (its folder would be another door to keep private); a committed row survives a crash; the
   * server writes its log itself (mode 0600), whoever reads its output.
   */
  private static final String SERVER_SETTINGS =
      "listen_addresses=localhost unix_socket_directories='' password_encryption=scram-sha-256"
          + " fsync=on synchronous_commit=on logging_collector=on log_directory=. log_filename="
          + LOG_FILE
          + " log_rotation_size=0";

  /** exit_on_error: fail on an error; log_min_error_statement=panic: never print the password. */
  private static final String SINGLE_USER =
      "--single -c password_encryption=scram-sha-256 -c exit_on_error=on"
          + " -c log_min_error_statement=panic";

  /** This JVM's servers by canonical data directory; starts are serialised on it. */
  static final Map<Path, EmbeddedPostgresServer> SERVERS = new HashMap<>();

  /** zonky's folder of the binaries it unpacked: {@code PG-<MD5 of the archive>}. */
  private static volatile String unpackedAs;

  /** zonky's archive, under a key of our own in zonky's JVM-wide cache of unpacked binaries. */
  private static final PgBinaryResolver BINARIES =
      (system, machine) -> {
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine)) {
          byte[] archive = in.readAllBytes();
          unpackedAs = "PG-" + DigestUtils.md5Hex(archive);
          return new ByteArrayInputStream(archive);
        }
      };

  /** The server, and whether {@link #acquire} started it. */
  public record Acquisition(EmbeddedPostgresServer server, boolean started) {}

  /**
   * The server on the data directory, started if this JVM has not yet.
   *
   * @throws IllegalStateException if it cannot be started (the message says why), or runs on
   *     another port than the one asked for (0: any)
   */
  public static Acquisition acquire(Path directory, int port, Log log) {
    synchronized (SERVERS) {
      Path dataDirectory;
      try { // private from the start; an existing one is checked in start()
        dataDirectory = Files.createDirectories(directory, OwnerOnly.DIRECTORY).toRealPath();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the data directory (" + DATA_DIR + ")", e);
      }
      boolean started = !SERVERS.containsKey(dataDirectory);
      EmbeddedPostgresServer server =
          SERVERS.computeIfAbsent(dataDirectory, d -> start(d, port, log));
      if (port != 0 && port != server.port()) {
        String message = "The embedded PostgreSQL on %s already runs on port %d, but '%s' asks %d";
        throw new IllegalStateException(message.formatted(dataDirectory, server.port, PORT, port));
      }
      return new Acquisition(server, started);
    }
  }

  private static EmbeddedPostgresServer start(Path dataDirectory, int port, Log log) {
    Path cache = cache(cacheHome(), log);
    LeftoverPostmaster.clear(dataDirectory, log);
    // Clear messages, naming the property, rather than what initdb or PostgreSQL would say:
    boolean initialised = Files.exists(dataDirectory.resolve("postgresql.conf"));
    if (!initialised && dataDirectory.toFile().list().length > 0) {
      String problem = "not empty and not a PostgreSQL data directory (no postgresql.conf)";
      throw new IllegalStateException(invalidValue(DATA_DIR, dataDirectory, problem));
    }
    try {
      if (port != 0) { // binds only if the port is free; released at once
        new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
      }
    } catch (IOException | IllegalArgumentException e) {
      String problem = "expected 0 (any) or a free port from 1 to 65535 on localhost (" + e + ")";
      throw new IllegalStateException(invalidValue(PORT, port, problem), e);
    }
    OwnerOnly.directory(dataDirectory, "the PostgreSQL data directory ('" + DATA_DIR + "')", log);
    // initdb needs an empty directory: a new cluster's password file is written by secure().
    String password = initialised ? password(dataDirectory.resolve(PASSWORD_FILE)) : newPassword();
    EmbeddedPostgres.Builder builder =
        builder(cache)
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(false)
            .setPort(port)
            .setPGStartupWait(Duration.ofSeconds(60)) // crash recovery may replay WAL first
            .setLocaleConfig("locale", "C") // these follow zonky's "-A trust", so they win:
            .setLocaleConfig("auth", "reject") // no way in until secure() writes pg_hba.conf
            .setConnectConfig("password", password)
            .setOutputRedirector(initialised ? toLog(dataDirectory, log) : Redirect.PIPE)
            .setDataDirectoryCustomizer(d -> secure(dataDirectory, password, cache, log));
    for (String setting : SERVER_SETTINGS.split(" ")) {
      builder.setServerConfig(setting.split("=")[0], setting.split("=")[1]);
    }
    try {
      EmbeddedPostgres postgres = builder.start();
      return new EmbeddedPostgresServer(dataDirectory, postgres.getPort(), password, postgres);
    } catch (IOException | RuntimeException e) {
      String message = "Could not start the embedded PostgreSQL on %s (see %s): %s. Set %s to use";
      message = message.formatted(dataDirectory, LOG_FILE, e.getMessage(), DATASOURCE_URL);
      throw new IllegalStateException(message + " another server.", e);
    }
  }

  /**
   * zonky's builder, its working folder being the checked {@code cache}, not {@code
   * /tmp/embedded-pg}: zonky creates that folder, opens it to all, stops and deletes "stale"
   * clusters in it (which anyone could plant in a shared folder) and unpacks the binaries into it.
   */
  static EmbeddedPostgres.Builder builder(Path cache) {
    Object previous = System.getProperties().put("ot.epg.working-dir", cache.toString());
    try {
      return EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(cache.toFile())
          .setPgBinaryResolver(BINARIES);
    } finally {
      System.getProperties().compute("ot.epg.working-dir", (key, value) -> previous);
    }
  }

  /**
   * After initdb, before every start, while nothing listens: {@link #PG_HBA} replaces {@code
   * pg_hba.conf}; the superuser gets the password of {@value #PASSWORD_FILE} in single-user mode
   * (which also upgrades a trust cluster of an older version); the cache is closed again.
   */
  private static void secure(Path dataDirectory, String password, Path cache, Log log) {
    try {
      Files.writeString(dataDirectory.resolve("pg_hba.conf"), PG_HBA);
      password(dataDirectory.resolve(PASSWORD_FILE), password); // written now if new
      String statement = "ALTER ROLE " + USERNAME + " PASSWORD '" + password + "'\n";
      Path binaries = cache.resolve(unpackedAs);
      run(dataDirectory, log, statement, binaries.resolve("bin/postgres"), SINGLE_USER, DATABASE);
      Stream<Path> more = Stream.of(cache, dataDirectory.resolve("epg-lock")); // zonky's, 0644
      try (Stream<Path> tree = Stream.concat(more, Files.walk(binaries))) {
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

  /** {@code <cache home>/once/postgres}, checked top down by {@link OwnerOnly#directory}. */
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
   */
  static String password(Path file) {
    return password(file, newPassword());
  }

  private static String password(Path file, String ifMissing) {
    String remedy = "Delete it to have a new password generated.";
    return SecretFile.readOrCreate(
            file, () -> ifMissing, p -> p.matches("[\\w-]{43,}"), "password", remedy)
        .secret();
  }

  private static String newPassword() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Ids.randomBytes(32));
  }

  /**
   * Runs a PostgreSQL program to its end (2 minutes at most) with {@code arguments} (split at
   * spaces), {@code -D <data>} and {@code more}, its output appended to the server's log; as root,
   * where PostgreSQL refuses to run, in a user namespace ({@code unshare -U}), as zonky does.
   */
  static void run(Path data, Log log, String input, Path program, String arguments, String... more)
      throws IOException {
    List<String> command =
        new ArrayList<>(LinuxUtils.isUnshareAvailable() ? List.of("unshare", "-U") : List.of());
    command.add(program.toString());
    command.addAll(List.of(arguments.split(" ")));
    command.addAll(List.of("-D", data.toString()));
    command.addAll(List.of(more));
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(toLog(data, log));
    Process process = builder.redirectErrorStream(true).start();
    try {
      process.outputWriter(StandardCharsets.UTF_8).append(input).close(); // then end of input
      if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IOException(program + " failed or did not end in time");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted waiting for " + program, e);
    } finally {
      process.destroyForcibly(); // if it is still running
    }
  }

  /** The JDBC URL of a database on this server, without credentials. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + port + "/" + database;
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
