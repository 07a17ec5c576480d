package dev.once.verify.failover;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.secrets.OwnerOnly;
import dev.once.verify.harness.Folders;
import dev.once.verify.harness.ShopLogin;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import org.apache.commons.logging.LogFactory;

/**
 * A primary and a standby on localhost, both from the embedded PostgreSQL binaries, with streaming
 * replication, for {@code chaos --failover}. The shops connect with a multi-host JDBC URL ({@link
 * #login}: both servers, {@code targetServerType=primary}), so after a {@link #failover} their
 * pools find the new primary by themselves.
 *
 * <p>What each {@link Mode} promises: with {@link Mode#SYNC} a commit returns only once the standby
 * has flushed it ({@code synchronous_standby_names}, {@code synchronous_commit=on}), so a failover
 * loses no acknowledged transaction; {@link #failover} only runs while the standby is synchronous.
 * {@link Mode#ASYNC} may lose the last commits the standby had not received. {@link
 * Mode#ASYNC_UNFLUSHED} is the checker's broken mode: asynchronous, {@code synchronous_commit=off}
 * and a WAL writer that flushes every 10 s, so a failover under load loses acknowledged commits for
 * sure.
 *
 * <p>After a failover the old primary's directory is {@link #rebuild rebuilt} as the new primary's
 * standby from a {@link BaseBackup}, so a run can fail over again, back and forth.
 */
public final class ReplicatedPostgres implements AutoCloseable {
  /** How the standby follows the primary. */
  public enum Mode {
    SYNC,
    ASYNC,
    ASYNC_UNFLUSHED;

    /** The flag's spelling, e.g. {@code async-unflushed}. */
    public String flag() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The mode of a flag's value, or null. */
    public static Mode ofFlag(String flag) {
      for (Mode m : values()) {
        if (m.flag().equals(flag)) {
          return m;
        }
      }
      return null;
    }
  }

  /** The shop's database and roles, as {@code BenchDatabase} makes them. */
  public static final String DATABASE = "shop";

  private final Path folder;
  private final Mode mode;
  private final Node[] nodes;
  private final EmbeddedDatabase layout;
  private int primary;

  private ReplicatedPostgres(Path folder, Mode mode, Node[] nodes, EmbeddedDatabase layout) {
    this.folder = folder;
    this.mode = mode;
    this.nodes = nodes;
    this.layout = layout;
  }

  /**
   * Starts the primary (initdb, the shop's database and two roles through the embedded server, then
   * under this class's own {@code pg_ctl}) and its standby, and returns once the standby streams
   * (with {@link Mode#SYNC}: is synchronous).
   */
  public static ReplicatedPostgres start(Mode mode) throws IOException, SQLException {
    Path folder = Files.createTempDirectory("once-verify-failover-");
    try {
      EmbeddedPostgresServer first =
          EmbeddedPostgresServer.acquire(
                  folder.resolve("a"), 0, LogFactory.getLog(ReplicatedPostgres.class))
              .server();
      EmbeddedDatabase layout = first.database(DATABASE, LogFactory.getLog(Node.class));
      Path bin =
          Path.of(first.postmaster().orElseThrow().info().command().orElseThrow()).getParent();
      first.stop(); // from here on both servers are started by pg_ctl, with the settings below
      Node a = new Node("a", first.dataDirectory(), first.port(), bin, first.password());
      Path b = Files.createDirectories(folder.resolve("b"), OwnerOnly.DIRECTORY);
      Node standby = new Node("b", b.toRealPath(), freePort(), bin, first.password());
      ReplicatedPostgres pair =
          new ReplicatedPostgres(folder, mode, new Node[] {a, standby}, layout);
      a.configure(mode != Mode.ASYNC_UNFLUSHED, pair.unflushed());
      a.start();
      pair.rebuild();
      return pair;
    } catch (IOException | SQLException | RuntimeException e) {
      Folders.delete(folder);
      throw e;
    }
  }

  /** How the shops log in: both servers in one URL; only the primary is taken. */
  public ShopLogin login() {
    String url =
        "jdbc:postgresql://localhost:%d,localhost:%d/%s?targetServerType=primary"
            .formatted(nodes[0].port, nodes[1].port, DATABASE);
    return new ShopLogin(
        url,
        layout.application().user(),
        layout.application().password(),
        layout.owner().user(),
        layout.owner().password());
  }

  /** The mode of replication. */
  public Mode mode() {
    return mode;
  }

  /** The server that is primary now. */
  public String primaryName() {
    return nodes[primary].toString();
  }

  /**
   * What a failover took.
   *
   * @param killed the old primary's SIGKILL (the time of {@link System#nanoTime()})
   * @param promoted when the standby answered as a primary
   * @param from the old primary
   * @param to the new one
   */
  public record Failover(long killed, long promoted, String from, String to) {
    /** Seconds from the kill to the promotion. */
    public double promotionSeconds() {
      return (promoted - killed) / 1e9;
    }
  }

  /**
   * Kills the primary with SIGKILL (the postmaster and all its processes at once) and promotes the
   * standby ({@code pg_promote}, waiting for it). The old primary stays down until {@link
   * #rebuild}.
   *
   * @throws IllegalStateException if the standby is not streaming (with {@link Mode#SYNC}: not
   *     synchronous), so that no failover runs onto a standby that may lack acknowledged commits
   */
  public synchronized Failover failover() throws SQLException {
    Node old = nodes[primary];
    Node next = nodes[1 - primary];
    requireStandby(old);
    long killed = System.nanoTime();
    old.kill();
    try (Connection c = next.connect("postgres");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_promote(true, 60)")) {
      rs.next();
      if (!rs.getBoolean(1)) {
        throw new SQLException(next + " was not promoted within 60 s");
      }
    }
    long promoted = System.nanoTime();
    primary = 1 - primary;
    return new Failover(killed, promoted, old.toString(), next.toString());
  }

  /**
   * Makes the server that is not primary its standby again: its directory emptied, a {@link
   * BaseBackup} of the primary, started streaming through the slot; with {@link Mode#SYNC} then
   * made synchronous, and returns once it has flushed everything the primary had written.
   */
  public synchronized void rebuild() throws IOException, SQLException {
    Node main = nodes[primary];
    Node standby = nodes[1 - primary];
    standby.kill();
    standby.wipe();
    BaseBackup.take(main, standby);
    standby.configure(mode != Mode.ASYNC_UNFLUSHED, standby.standbyOf(main) + unflushed());
    Files.createFile(standby.data.resolve("standby.signal"));
    standby.start();
    String names = mode == Mode.SYNC ? Node.STANDBY_NAME : "";
    try (Connection c = main.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("ALTER SYSTEM SET synchronous_standby_names = '" + names + "'");
      s.execute("SELECT pg_reload_conf()");
      String written;
      try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
        rs.next();
        written = rs.getString(1);
      }
      awaitStandby(s, written, Duration.ofMinutes(2));
    }
  }

  /**
   * Waits until the standby streams, has flushed {@code lsn}, and (with {@link Mode#SYNC}) is
   * synchronous.
   */
  private void awaitStandby(Statement s, String lsn, Duration timeout) throws SQLException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String sql =
        "SELECT count(*) FROM pg_stat_replication WHERE application_name = '"
            + Node.STANDBY_NAME
            + "' AND state = 'streaming' AND flush_lsn >= '"
            + lsn
            + "'::pg_lsn"
            + (mode == Mode.SYNC ? " AND sync_state = 'sync'" : "");
    while (true) {
      try (ResultSet rs = s.executeQuery(sql)) {
        rs.next();
        if (rs.getLong(1) > 0) {
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new SQLException("the standby did not catch up within " + timeout);
      }
      try {
        Thread.sleep(50); // polling the server's own view; there is no notification
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted waiting for the standby", e);
      }
    }
  }

  /**
   * {@code CHECKPOINT} on the primary: everything committed so far is flushed, and so sent to the
   * standby. A run calls it once its set-up is done, so that the broken mode loses the workload's
   * answers, not the API clients and accounts the checks read through.
   */
  public synchronized void checkpoint() throws SQLException {
    try (Connection c = nodes[primary].connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("CHECKPOINT");
    }
  }

  private void requireStandby(Node main) throws SQLException {
    try (Connection c = main.connect("postgres");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'"
                    + (mode == Mode.SYNC ? " AND sync_state = 'sync'" : ""))) {
      rs.next();
      if (rs.getLong(1) == 0) {
        throw new IllegalStateException(
            "no failover: the standby of "
                + main
                + " is not "
                + (mode == Mode.SYNC ? "synchronous" : "streaming"));
      }
    }
  }

  /**
   * The broken mode's WAL flushes: the WAL writer flushes every 10 s at most, and neither the
   * background writer nor autovacuum writes pages (each page written first flushes the WAL up to
   * it), so the standby, which is sent only flushed WAL, lags up to 10 s.
   */
  private String unflushed() {
    return mode == Mode.ASYNC_UNFLUSHED
        ? "wal_writer_delay = '10s'\nwal_writer_flush_after = '1GB'\nbgwriter_lru_maxpages = 0\nautovacuum = off\n"
        : "";
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Stops both servers and deletes their folder. */
  @Override
  public synchronized void close() {
    for (Node n : nodes) {
      n.stop();
    }
    Folders.delete(folder);
  }
}
