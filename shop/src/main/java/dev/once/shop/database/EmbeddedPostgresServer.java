package dev.once.shop.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A running embedded PostgreSQL server, shared by everything in the JVM that uses its data
 * directory. Obtain it from {@link EmbeddedPostgresServers}; it is stopped by a JVM shutdown hook
 * (or {@link EmbeddedPostgresServers#stop(Path)}), never when a Spring context closes.
 *
 * <p>The server trusts every local connection (initdb {@code -A trust}) and listens on {@code
 * localhost} only, so the password is empty.
 */
public final class EmbeddedPostgresServer {

  /** The superuser created by initdb; the application connects as this user. */
  public static final String USERNAME = "postgres";

  /** The database the application uses (initdb's default database). */
  public static final String DATABASE = "postgres";

  private final Path dataDirectory;
  private final Path logFile;
  private final EmbeddedPostgres postgres;

  EmbeddedPostgresServer(Path dataDirectory, Path logFile, EmbeddedPostgres postgres) {
    this.dataDirectory = dataDirectory;
    this.logFile = logFile;
    this.postgres = postgres;
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
   * The file PostgreSQL (initdb, pg_ctl, the server) writes its output to: next to the data
   * directory, named after it with {@code .log} appended.
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
    return postgres.getPort();
  }

  /**
   * The JDBC URL of the application database, without credentials.
   *
   * @return the JDBC URL
   */
  public String jdbcUrl() {
    return jdbcUrl(DATABASE);
  }

  /**
   * The JDBC URL of a database of this server, without credentials.
   *
   * @param database the database name
   * @return the JDBC URL
   */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + port() + "/" + database;
  }

  /**
   * The user to connect as.
   *
   * @return {@value #USERNAME}
   */
  public String username() {
    return USERNAME;
  }

  /**
   * The password to connect with: empty, because local connections are trusted.
   *
   * @return the empty string
   */
  public String password() {
    return "";
  }

  /**
   * The postmaster's PID, from line 1 of {@code postmaster.pid}. (zonky only knows the PID of
   * {@code pg_ctl}, which exits once the daemonised postmaster is up.)
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

  /** Fast shutdown through {@code pg_ctl stop}; idempotent (zonky's shutdown hook calls it too). */
  void close() throws IOException {
    postgres.close();
  }

  @Override
  public String toString() {
    return "EmbeddedPostgresServer[" + dataDirectory + ", port " + port() + "]";
  }
}
