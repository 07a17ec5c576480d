package dev.once.shop.database;

import dev.once.shop.secrets.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;

/**
 * A running embedded PostgreSQL server, shared by everything in the JVM that uses its data
 * directory. Obtain it from {@link EmbeddedPostgresServers}; it is stopped by a JVM shutdown hook
 * (or {@link EmbeddedPostgresServers#stop(Path)}), never when a Spring context closes.
 *
 * <p>It listens on {@code localhost} only (no Unix-domain socket), and every connection must
 * authenticate with a password (SCRAM-SHA-256). The superuser's password is generated once, kept in
 * {@value #PASSWORD_FILE} inside the data directory (readable by the owner only, see {@link
 * PasswordFile}) and set again at every start, before the server listens. {@link #toString()} and
 * the JDBC URLs never contain it.
 */
public final class EmbeddedPostgresServer {

  /** The superuser created by initdb; the application connects as this user. */
  public static final String USERNAME = "postgres";

  /** The file in the data directory that holds the superuser's password. */
  public static final String PASSWORD_FILE = "postgres.password";

  /** The database the application uses (initdb's default database). */
  public static final String DATABASE = "postgres";

  /** PostgreSQL's output (initdb, single-user mode, pg_ctl, the server), in the data directory. */
  public static final String LOG_FILE = "postgres.log";

  /**
   * The only authentication rules: a password (SCRAM-SHA-256) for every connection. Written before
   * every start, so a rule added by hand, or the {@code trust} of a cluster made by an older
   * version, never takes effect.
   */
  static final String PG_HBA =
      """
      # Written by the shop (dev.once.shop.database) before every start; edits are overwritten.
      # Every connection needs a password (SCRAM-SHA-256); the server listens on localhost only.
      local all all scram-sha-256
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      """;

  /**
   * Server settings, on pg_ctl's command line (which a shell splits) so that they win over {@code
   * postgresql.conf} and {@code ALTER SYSTEM}.
   */
  private static final String SERVER_OPTIONS =
      String.join(
          " ",
          "-c listen_addresses=localhost",
          // No Unix-domain socket: its folder would be another door to keep private.
          "-c unix_socket_directories=''",
          "-c password_encryption=scram-sha-256",
          // A pool of 20 per cached Spring test context, plus tests and psql sessions.
          "-c max_connections=300",
          // This data is kept, so a committed row must survive a crash.
          "-c fsync=on",
          "-c synchronous_commit=on",
          "-c timezone=UTC");

  private final Path dataDirectory;
  private final Path logFile;
  private final int port;
  private final String password;
  private final PostgresBinaries binaries;
  private final FileChannel lock;
  private final AtomicBoolean closed = new AtomicBoolean();

  EmbeddedPostgresServer(
      Path dataDirectory,
      Path logFile,
      int port,
      String password,
      PostgresBinaries binaries,
      FileChannel lock) {
    this.dataDirectory = dataDirectory;
    this.logFile = logFile;
    this.port = port;
    this.password = password;
    this.binaries = binaries;
    this.lock = lock;
  }

  /**
   * Starts the server on a data directory that is empty or holds a cluster, both checked by the
   * caller, and that no process uses. Before the server listens:
   *
   * <ol>
   *   <li>an empty directory gets a cluster from initdb (superuser {@value #USERNAME}, no way in
   *       until the next steps);
   *   <li>the directory is locked ({@value LeftoverPostmaster#ZONKY_LOCK_FILE}) until {@link
   *       #close()}, which tells other processes it is in use;
   *   <li>{@link #PG_HBA} replaces {@code pg_hba.conf};
   *   <li>the superuser's password from {@value #PASSWORD_FILE} (created if missing) is set in
   *       single-user mode, which listens nowhere; a cluster of an older version (trust, no
   *       password) is upgraded by exactly these steps.
   * </ol>
   *
   * <p>Then {@code pg_ctl start} starts the server and waits until it accepts connections.
   */
  static EmbeddedPostgresServer start(
      Path dataDirectory, int port, PostgresBinaries binaries, Log log) throws IOException {
    String initdbOutput = "";
    if (EmbeddedPostgresServers.isEmpty(dataDirectory)) {
      // Its output is kept in memory: initdb needs the directory empty, and the log is inside.
      // C locale: independent of the developer's LANG, which initdb would otherwise inherit.
      // "reject" needs no password and is never "trust"; pg_hba.conf is replaced below anyway.
      initdbOutput =
          binaries.run(
              Redirect.PIPE,
              "",
              "initdb -U " + USERNAME + " -E UTF-8 --locale=C --auth=reject",
              dataDirectory);
    }
    Path logFile = OwnerOnly.file(dataDirectory.resolve(LOG_FILE), "the PostgreSQL log", log);
    Files.writeString(logFile, initdbOutput, StandardOpenOption.APPEND);
    Redirect toLog = Redirect.appendTo(logFile.toFile());
    FileChannel lock = lock(dataDirectory, log);
    try {
      String password = PasswordFile.readOrCreate(dataDirectory.resolve(PASSWORD_FILE));
      Files.writeString(dataDirectory.resolve("pg_hba.conf"), PG_HBA);
      // exit_on_error: exit non-zero on an error. log_min_error_statement=panic: never print the
      // statement, which holds the password.
      binaries.run(
          toLog,
          "ALTER ROLE " + USERNAME + " PASSWORD '" + password + "'\n",
          "postgres --single -c password_encryption=scram-sha-256 -c exit_on_error=on"
              + " -c log_min_error_statement=panic",
          dataDirectory,
          DATABASE);
      binaries.run(
          toLog,
          "",
          "pg_ctl start -w -t " + EmbeddedPostgresServers.STARTUP_TIMEOUT.toSeconds(),
          dataDirectory,
          "-o",
          "-p " + port + " " + SERVER_OPTIONS);
      return new EmbeddedPostgresServer(dataDirectory, logFile, port, password, binaries, lock);
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** Holds zonky's lock file, which {@link LeftoverPostmaster} reads as "a live JVM owns it". */
  private static FileChannel lock(Path dataDirectory, Log log) throws IOException {
    Path lockFile =
        OwnerOnly.file(
            dataDirectory.resolve(LeftoverPostmaster.ZONKY_LOCK_FILE), "the lock file", log);
    FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
    if (channel.tryLock() == null) {
      channel.close();
      throw new IllegalStateException(
          "Data directory " + dataDirectory + " was taken by another process just now");
    }
    return channel;
  }

  /**
   * The canonical data directory.
   *
   * @return the data directory
   */
  public Path dataDirectory() {
    return dataDirectory;
  }

  /**
   * The file PostgreSQL (initdb, pg_ctl, the server) writes its output to: {@value #LOG_FILE} in
   * the data directory, readable by the owner only.
   *
   * @return the log file
   */
  public Path logFile() {
    return logFile;
  }

  /**
   * The TCP port on {@code localhost}.
   *
   * @return the port
   */
  public int port() {
    return port;
  }

  /**
   * The JDBC URL of the default database {@value #DATABASE}, without credentials.
   *
   * @return the JDBC URL
   */
  public String jdbcUrl() {
    return jdbcUrl(DATABASE);
  }

  /**
   * The JDBC URL of a database on this server, without credentials.
   *
   * @param database the database name (URL-encoded here, so any name works)
   * @return the JDBC URL
   */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:"
        + port
        + "/"
        + URLEncoder.encode(database, StandardCharsets.UTF_8);
  }

  /**
   * The superuser to connect as.
   *
   * @return {@value #USERNAME}
   */
  public String username() {
    return USERNAME;
  }

  /**
   * The superuser's password, as kept in {@value #PASSWORD_FILE}. Never log it.
   *
   * @return the password
   */
  public String password() {
    return password;
  }

  /**
   * The postmaster's PID, from line 1 of {@code postmaster.pid} ({@code pg_ctl} exits once the
   * daemonised postmaster is up).
   *
   * @return the PID of the running postmaster
   * @throws UncheckedIOException if the pid file cannot be read (the server is not running)
   */
  public long postmasterPid() {
    Path pidFile = dataDirectory.resolve(LeftoverPostmaster.PID_FILE);
    try {
      List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
      return Long.parseLong(lines.get(0).strip());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + pidFile, e);
    }
  }

  /**
   * Fast shutdown through {@code pg_ctl stop} (waits for it), then releases the directory's lock.
   * Idempotent: the JVM shutdown hook calls it too.
   */
  void close() throws IOException {
    if (closed.getAndSet(true)) {
      return;
    }
    try (lock) {
      binaries.stop(
          dataDirectory, EmbeddedPostgresServers.STOP_TIMEOUT, Redirect.appendTo(logFile.toFile()));
    }
  }

  /** For the JVM shutdown hook, where logging may already be shut down. */
  void stopAtExit() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      System.err.println("Could not stop the embedded PostgreSQL on " + dataDirectory + ": " + e);
    }
  }

  @Override
  public String toString() {
    return "EmbeddedPostgresServer[" + dataDirectory + ", port " + port() + "]";
  }
}
