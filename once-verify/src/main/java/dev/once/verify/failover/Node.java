package dev.once.verify.failover;

import dev.once.verify.harness.Folders;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One PostgreSQL server of a {@link ReplicatedPostgres}: a data directory, a fixed port on
 * localhost, and the binaries' {@code pg_ctl}. Its settings live in {@code postgresql.auto.conf},
 * which {@link #configure} writes whole before each start (and {@code ALTER SYSTEM} edits later),
 * so its command line holds no setting and no password.
 */
final class Node {
  /** The name every standby reports to its primary, for {@code synchronous_standby_names}. */
  static final String STANDBY_NAME = "standby";

  /** The physical replication slot on the primary that keeps the standby's WAL. */
  static final String SLOT = "once_verify_standby";

  /** As the embedded servers: localhost, no socket, passwords, durable commits, own log. */
  private static final String SETTINGS =
      """
      listen_addresses = 'localhost'
      unix_socket_directories = ''
      password_encryption = 'scram-sha-256'
      fsync = on
      full_page_writes = on
      logging_collector = on
      log_directory = '.'
      log_filename = 'postgres.log'
      log_rotation_size = 0
      hot_standby = on
      wal_level = replica
      max_wal_senders = 4
      max_replication_slots = 4
      """;

  /** Every connection needs a password; replication connections too, from localhost only. */
  static final String PG_HBA =
      """
      # Written by once-verify's ReplicatedPostgres before every start.
      host all all 127.0.0.1/32 scram-sha-256
      host all all ::1/128 scram-sha-256
      host replication postgres 127.0.0.1/32 scram-sha-256
      host replication postgres ::1/128 scram-sha-256
      """;

  final String name;
  final Path data;
  final int port;
  private final Path bin;
  private final String superuserPassword;

  Node(String name, Path data, int port, Path bin, String superuserPassword) {
    this.name = name;
    this.data = data;
    this.port = port;
    this.bin = bin;
    this.superuserPassword = superuserPassword;
  }

  /**
   * Writes the server's settings: {@link #SETTINGS}, its port, {@code synchronous_commit} and
   * {@code more} (a standby's connection to its primary, the broken mode's WAL writer), and {@code
   * pg_hba.conf}; the password of {@code primary_conninfo} stays in this owner-only directory.
   */
  void configure(boolean synchronousCommit, String more) throws IOException {
    String settings =
        "# Written by once-verify's ReplicatedPostgres; ALTER SYSTEM may edit it.\n"
            + SETTINGS
            + "port = "
            + port
            + "\nsynchronous_commit = "
            + (synchronousCommit ? "on" : "off")
            + "\n"
            + more;
    Files.writeString(data.resolve("postgresql.auto.conf"), settings, StandardCharsets.UTF_8);
    Files.writeString(data.resolve("pg_hba.conf"), PG_HBA, StandardCharsets.UTF_8);
  }

  /** The lines that make this node stream from {@code primary}. */
  String standbyOf(Node primary) {
    return "primary_conninfo = 'host=localhost port="
        + primary.port
        + " user=postgres password="
        + superuserPassword
        + " application_name="
        + STANDBY_NAME
        + "'\nprimary_slot_name = '"
        + SLOT
        + "'\n";
  }

  /** {@code pg_ctl start -w}: returns once the server accepts connections (a standby: reads). */
  void start() throws IOException {
    pgCtl("start", "-w", "-t", "120", "-l", data.resolve("pg_ctl.log").toString());
  }

  /** {@code pg_ctl stop -m fast}, if it runs. */
  void stop() {
    if (postmaster().isEmpty()) {
      return;
    }
    try {
      pgCtl("stop", "-w", "-t", "60", "-m", "fast");
    } catch (IOException e) {
      kill(); // it must not outlive the run
    }
  }

  /**
   * SIGKILL of the postmaster and of every process it started at once, as when the machine under it
   * is lost; returns once they are gone. Nothing it had not flushed and sent reaches the standby.
   */
  void kill() {
    Optional<ProcessHandle> postmaster = postmaster();
    if (postmaster.isEmpty()) {
      return;
    }
    List<ProcessHandle> all = new ArrayList<>(postmaster.get().descendants().toList());
    all.add(0, postmaster.get());
    all.forEach(ProcessHandle::destroyForcibly); // the postmaster first: no restart of a child
    for (ProcessHandle p : all) {
      p.onExit().completeOnTimeout(p, 30, TimeUnit.SECONDS).join();
    }
  }

  /** The running postmaster (line 1 of {@code postmaster.pid}), if any. */
  Optional<ProcessHandle> postmaster() {
    Path pid = data.resolve("postmaster.pid");
    try {
      if (!Files.exists(pid)) {
        return Optional.empty();
      }
      String first = Files.readAllLines(pid).get(0).trim();
      return ProcessHandle.of(Long.parseLong(first)).filter(ProcessHandle::isAlive);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A new connection to {@code database} as the superuser, auto-commit on. */
  Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + port + "/" + database, "postgres", superuserPassword);
  }

  /** Empties the data directory (the server must be stopped or dead). */
  void wipe() throws IOException {
    Folders.empty(data, true);
  }

  private void pgCtl(String... arguments) throws IOException {
    List<String> command =
        new ArrayList<>(LinuxUtils.isUnshareAvailable() ? List.of("unshare", "-U") : List.of());
    command.add(bin.resolve("pg_ctl").toString());
    command.addAll(List.of(arguments));
    command.addAll(List.of("-D", data.toString()));
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(data.resolve("pg_ctl.log").toFile()))
            .start();
    try {
      if (!process.waitFor(3, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IOException(
            "pg_ctl " + arguments[0] + " failed on " + name + " (see " + data + "/pg_ctl.log)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for pg_ctl " + arguments[0], e);
    } finally {
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return name + " (port " + port + ")";
  }
}
