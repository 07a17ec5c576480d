package dev.once.embedded;

import static dev.once.embedded.EmbeddedPostgresProperties.DATASOURCE_URL;
import static dev.once.embedded.EmbeddedPostgresProperties.DATA_DIR;
import static dev.once.embedded.EmbeddedPostgresProperties.PORT;
import static dev.once.embedded.EmbeddedPostgresProperties.invalidValue;

import dev.once.embedded.secrets.OwnerOnly;
import dev.once.embedded.secrets.SecretFile;
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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.logging.Log;

/**
 * A running embedded PostgreSQL server, and the JVM's registry of them: one per data directory (by
 * its canonical path), shared by every caller (every Spring context, every test) of the JVM,
 * stopped (fast shutdown) by zonky's shutdown hook or by {@link #stop()}. {@link #acquire} checks
 * the data directory, the port and the binaries' {@link #cache} before zonky unpacks, runs initdb,
 * locks the directory ({@code epg-lock}) and starts the server. What it guarantees:
 *
 * <ul>
 *   <li>the server listens on {@code localhost} only, has no Unix-domain socket, and asks every
 *       connection for a password (SCRAM-SHA-256; {@code pg_hba.conf} is rewritten before every
 *       start);
 *   <li>the superuser's password ({@value #PASSWORD_FILE}) and those of the roles made by {@link
 *       #database} are random, each in an owner-only file of the data directory ({@link
 *       SecretFile});
 *   <li>the data directory, the server's log and the unpacked binaries ({@code <cache
 *       home>/once/postgres}) are the current OS user's only;
 *   <li>a committed transaction survives a crash ({@code fsync} and {@code synchronous_commit} on);
 *   <li>a postmaster that a killed JVM left running on the directory is stopped cleanly first
 *       ({@link LeftoverPostmaster}).
 * </ul>
 *
 * For development and tests, never for production data.
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
      # Written by dev.once.embedded before every start; edits are overwritten.
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

  /** The folder of the binaries the servers of this JVM were started from. */
  private static volatile Path binaries;

  /** zonky's archive, under a key of our own in zonky's JVM-wide cache of unpacked binaries. */
  private static final PgBinaryResolver BINARIES =
      (system, machine) -> {
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine)) {
          byte[] archive = in.readAllBytes();
          unpackedAs = "PG-" + md5Hex(archive);
          return new ByteArrayInputStream(archive);
        }
      };

  /**
   * A server of its own in a new temporary data directory, for tests: stopped, and its directory
   * deleted, when the JVM exits (what cannot be deleted is reported on standard error).
   *
   * @param prefix the start of the directory's name, e.g. {@code once-test-postgres}
   * @param settings PostgreSQL settings by name, as for {@link #acquire(Path, int, Map, Log)}
   * @param log where warnings and the start go
   * @throws IllegalStateException if it cannot be started
   */
  public static EmbeddedPostgresServer temporary(
      String prefix, Map<String, String> settings, Log log) {
    Path data;
    try {
      data = Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a temporary data directory", e);
    }
    EmbeddedPostgresServer server = acquire(data, 0, settings, log).server();
    Runtime.getRuntime().addShutdownHook(new Thread(server::stopAndDelete, prefix + "-stop"));
    return server;
  }

  /** Stops the server and deletes its data directory. */
  private void stopAndDelete() {
    stop();
    try (Stream<Path> tree = Files.walk(dataDirectory)) {
      for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not delete " + dataDirectory + ": " + e);
    }
  }

  /**
   * The server, and whether {@link #acquire} started it.
   *
   * @param server the server
   * @param started whether this call started it (false: this JVM already ran it)
   */
  public record Acquisition(EmbeddedPostgresServer server, boolean started) {}

  /**
   * The server on the data directory, started if this JVM has not yet.
   *
   * @param directory the data directory, created {@code rwx------} if missing; an existing one must
   *     be empty or a PostgreSQL cluster, and the current user's
   * @param port the TCP port on {@code localhost}, 0 for any free one
   * @param log where warnings and the start go
   * @return the server, and whether this call started it
   * @throws IllegalStateException if it cannot be started (the message says why), or runs on
   *     another port than the one asked for (0: any)
   */
  public static Acquisition acquire(Path directory, int port, Log log) {
    return acquire(directory, port, Map.of(), log);
  }

  /**
   * Like {@link #acquire(Path, int, Log)}, with more server settings ({@code max_connections}, for
   * example) for a server this call starts; they cannot override the settings that keep the server
   * private and durable (listen address, socket, password encryption, {@code fsync}, {@code
   * synchronous_commit}, logging).
   *
   * @param directory the data directory
   * @param port the TCP port on {@code localhost}, 0 for any free one
   * @param settings PostgreSQL settings by name, ignored if this JVM already runs the server
   * @param log where warnings and the start go
   * @return the server, and whether this call started it
   */
  public static Acquisition acquire(
      Path directory, int port, Map<String, String> settings, Log log) {
    synchronized (SERVERS) {
      Path dataDirectory;
      try { // private from the start; an existing one is checked in start()
        dataDirectory = Files.createDirectories(directory, OwnerOnly.DIRECTORY).toRealPath();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the data directory (" + DATA_DIR + ")", e);
      }
      boolean started = !SERVERS.containsKey(dataDirectory);
      EmbeddedPostgresServer server =
          SERVERS.computeIfAbsent(dataDirectory, d -> start(d, port, settings, log));
      if (port != 0 && port != server.port()) {
        String message = "The embedded PostgreSQL on %s already runs on port %d, but '%s' asks %d";
        throw new IllegalStateException(message.formatted(dataDirectory, server.port, PORT, port));
      }
      return new Acquisition(server, started);
    }
  }

  private static EmbeddedPostgresServer start(
      Path dataDirectory, int port, Map<String, String> settings, Log log) {
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
    settings.forEach(builder::setServerConfig); // overridden below where they would weaken it
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
      EmbeddedPostgresServer.binaries = binaries;
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
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  /** zonky names its folder of unpacked binaries after the MD5 of the archive. */
  private static String md5Hex(byte[] archive) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(archive));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
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

  /**
   * The server this JVM runs on a data directory, in any spelling, if any.
   *
   * @param dataDirectory the data directory
   * @return the server, or empty if this JVM runs none there
   */
  public static Optional<EmbeddedPostgresServer> find(Path dataDirectory) {
    try {
      Path key = dataDirectory.toRealPath();
      synchronized (SERVERS) {
        return Optional.ofNullable(SERVERS.get(key));
      }
    } catch (IOException e) {
      return Optional.empty(); // a directory that does not exist has no server
    }
  }

  /**
   * Stops the server now (fast shutdown: open transactions roll back) and forgets it, so that the
   * next {@link #acquire} on its data directory starts it again; returns once its postmaster has
   * exited (60 s at most), so that the data directory may be deleted then, also when zonky's
   * shutdown hook was stopping it at the same time. Does nothing more if it is stopped.
   *
   * @throws UncheckedIOException if it cannot be stopped
   */
  public void stop() {
    Optional<ProcessHandle> postmaster = postmaster();
    synchronized (SERVERS) {
      SERVERS.remove(dataDirectory, this);
      try {
        postgres.close(); // once: a second call, or one while zonky's hook runs, returns at once
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    // pg_ctl stop returns once the pid file is gone, a moment before the postmaster ends.
    postmaster.ifPresent(p -> p.onExit().completeOnTimeout(p, 60, TimeUnit.SECONDS).join());
  }

  /**
   * The database, made with its two roles if missing, and both roles' passwords set from their
   * files; see {@link EmbeddedDatabase}. Idempotent: every call (every start) makes the layout
   * exact again.
   *
   * @param name the database's name: lower-case letters, digits and {@code _}, at most 57
   *     characters, not starting with a digit
   * @param log where the upgrade of an earlier layout is logged
   * @return the database and the logins of its owner and of the application's role
   * @throws IllegalArgumentException if the name is not acceptable
   * @throws IllegalStateException if the layout cannot be made
   */
  public EmbeddedDatabase database(String name, Log log) {
    return EmbeddedDatabaseRoles.ensure(this, name, log);
  }

  /** The superuser made by initdb, {@value #USERNAME}, with its password. */
  public Login superuser() {
    return new Login(USERNAME, password);
  }

  /**
   * Whether a process is alive and not a zombie (exited, not reaped: the JDK reports it as alive).
   *
   * @param process the process
   * @return whether it runs
   */
  public static boolean isRunning(ProcessHandle process) {
    return LeftoverPostmaster.running(process);
  }

  /**
   * The postmaster that runs on the data directory now (its PID is line 1 of {@code
   * postmaster.pid}), if one runs.
   *
   * @return the postmaster
   */
  public Optional<ProcessHandle> postmaster() {
    return LeftoverPostmaster.pid(dataDirectory)
        .flatMap(ProcessHandle::of)
        .filter(LeftoverPostmaster::running);
  }

  /**
   * Starts the server again after its postmaster died, on the same data directory, port and command
   * line ({@code pg_ctl restart}, from {@code postmaster.opts}); crash recovery keeps every
   * committed transaction. Serialised with every start of the JVM: if another caller restarted it
   * already, returns that postmaster.
   *
   * @param dead the postmaster that died
   * @param timeout how long {@code pg_ctl} may wait for the server
   * @param log where {@code pg_ctl}'s failure goes (its output goes to the server's log)
   * @return the new postmaster
   * @throws IOException if {@code pg_ctl} fails
   * @throws IllegalStateException if processes of the dead server still run (their shared memory
   *     would stop the start: try again later), or no postmaster runs afterwards
   */
  public ProcessHandle restartAfterCrash(ProcessHandle dead, Duration timeout, Log log)
      throws IOException {
    synchronized (SERVERS) {
      Optional<ProcessHandle> current = postmaster().filter(p -> !p.equals(dead));
      if (current.isPresent()) {
        return current.get();
      }
      Path pidFile = dataDirectory.resolve(LeftoverPostmaster.PID_FILE);
      List<Long> left =
          ProcessHandle.allProcesses()
              .filter(
                  p ->
                      LeftoverPostmaster.running(p)
                          && LeftoverPostmaster.runsIn(p, pidFile).orElse(false))
              .map(ProcessHandle::pid)
              .toList();
      if (!left.isEmpty()) {
        throw new IllegalStateException("processes of the dead server still run: " + left);
      }
      if (LeftoverPostmaster.pid(dataDirectory).flatMap(ProcessHandle::of).isPresent()) {
        Files.deleteIfExists(pidFile); // a zombie, or the PID reused: PostgreSQL would refuse
      }
      Path pgCtl = binaries.resolve("bin/pg_ctl");
      long seconds = Math.max(1, timeout.toSeconds());
      run(dataDirectory, log, "", pgCtl, "restart -w -t " + seconds);
      return postmaster()
          .orElseThrow(() -> new IllegalStateException("no postmaster after pg_ctl"));
    }
  }

  /**
   * Empties a data directory unless this JVM runs a server on it: after stopping what a killed JVM
   * left running on it, and only if it is a PostgreSQL cluster (it has {@code PG_VERSION}) or
   * empty. For tests that want a fresh database at their JVM's first start.
   *
   * @param dataDirectory the data directory; nothing happens if it does not exist
   * @param log where the wipe is logged
   * @throws IllegalStateException if it holds files but is no PostgreSQL cluster
   */
  public static void wipeUnlessRunning(Path dataDirectory, Log log) {
    synchronized (SERVERS) {
      if (!Files.isDirectory(dataDirectory) || find(dataDirectory).isPresent()) {
        return;
      }
      try {
        Path directory = dataDirectory.toRealPath();
        LeftoverPostmaster.clear(directory, log);
        List<Path> paths;
        try (Stream<Path> tree = Files.walk(directory)) {
          paths = tree.filter(p -> !p.equals(directory)).toList();
        }
        if (!paths.isEmpty() && !Files.exists(directory.resolve("PG_VERSION"))) {
          throw new IllegalStateException(
              "Refusing to wipe '%s': it is not a PostgreSQL data directory (no PG_VERSION). Check '%s'."
                  .formatted(directory, DATA_DIR));
        }
        log.info("Wiping the embedded PostgreSQL data directory " + directory);
        for (Path path : paths.stream().sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
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
