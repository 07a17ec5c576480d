package dev.once.shop.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JVM-wide registry against real PostgreSQL processes: sharing, wiping, refusals. */
class EmbeddedPostgresServersTest {

  @TempDir Path temp;

  private Path dataDirectory;

  @AfterEach
  void stopServer() {
    if (dataDirectory != null) {
      EmbeddedPostgresServers.stop(dataDirectory);
    }
  }

  @Test
  void sameDirectoryInOneJvmSharesOneServer() throws Exception {
    dataDirectory = temp.resolve("pg");
    Path symlink =
        Files.createSymbolicLink(temp.resolve("link"), Files.createDirectories(dataDirectory));

    EmbeddedPostgresServers.Acquisition first =
        EmbeddedPostgresServers.acquire(new EmbeddedPostgresSettings(dataDirectory, 0, false));
    // Other spellings of the same directory; clean=true does not wipe a server already running.
    EmbeddedPostgresServers.Acquisition second =
        EmbeddedPostgresServers.acquire(
            new EmbeddedPostgresSettings(temp.resolve("elsewhere/../pg"), 0, true));
    EmbeddedPostgresServers.Acquisition third =
        EmbeddedPostgresServers.acquire(
            new EmbeddedPostgresSettings(symlink, first.server().port(), false));

    assertThat(first.started()).isTrue();
    assertThat(second.started()).isFalse();
    assertThat(third.started()).isFalse();
    assertThat(second.server()).isSameAs(first.server());
    assertThat(third.server()).isSameAs(first.server());
    assertThat(EmbeddedPostgresServers.find(symlink)).containsSame(first.server());

    EmbeddedPostgresServer server = first.server();
    assertThat(server.dataDirectory()).isEqualTo(dataDirectory.toRealPath());
    assertThat(server.jdbcUrl())
        .isEqualTo("jdbc:postgresql://localhost:" + server.port() + "/postgres");
    assertThat(Integer.parseInt(show(server, "max_connections"))).isGreaterThanOrEqualTo(100);
    assertThat(show(server, "fsync")).isEqualTo("on");
    assertThat(show(server, "synchronous_commit")).isEqualTo("on");
    assertThat(show(server, "listen_addresses")).isEqualTo("localhost");
    // PostgreSQL's output goes to a file next to the data directory, not into the data directory.
    assertThat(server.logFile()).isEqualTo(temp.toRealPath().resolve("pg.log"));
    assertThat(Files.readString(server.logFile())).contains("database system is ready");

    int otherPort = server.port() == 65_535 ? 65_534 : server.port() + 1;
    assertThatThrownBy(
            () ->
                EmbeddedPostgresServers.acquire(
                    new EmbeddedPostgresSettings(dataDirectory, otherPort, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(EmbeddedPostgresSettings.PORT)
        .hasMessageContaining("already runs on port " + server.port());
  }

  @Test
  void cleanWipesTheDataWhenTheServerStarts() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server =
        EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(dataDirectory, 0, false));
    execute(server, "CREATE TABLE leftover (id int)");
    assertThat(EmbeddedPostgresServers.stop(dataDirectory)).isTrue();
    assertThat(EmbeddedPostgresServers.find(dataDirectory)).isEmpty();

    EmbeddedPostgresServer wiped =
        EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(dataDirectory, 0, true));

    assertThat(query(wiped, "SELECT to_regclass('leftover') IS NULL")).isEqualTo("t");
  }

  @Test
  void keepsTheDataWithoutClean() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server =
        EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(dataDirectory, 0, false));
    execute(server, "CREATE TABLE kept (id int)");
    EmbeddedPostgresServers.stop(dataDirectory);

    EmbeddedPostgresServer restarted =
        EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(dataDirectory, 0, false));

    assertThat(query(restarted, "SELECT to_regclass('kept') IS NOT NULL")).isEqualTo("t");
  }

  @Test
  void refusesADirectoryThatIsNotAPostgresCluster() throws Exception {
    Path notes = Files.createDirectories(temp.resolve("notes"));
    Path precious = Files.writeString(notes.resolve("precious.txt"), "keep me");

    assertThatThrownBy(
            () -> EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(notes, 0, true)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Refusing to wipe")
        .hasMessageContaining(EmbeddedPostgresSettings.DATA_DIR);
    assertThatThrownBy(
            () -> EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(notes, 0, false)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(EmbeddedPostgresSettings.DATA_DIR)
        .hasMessageContaining("not a PostgreSQL data directory");
    assertThat(precious).hasContent("keep me");
    assertThat(EmbeddedPostgresServers.find(notes)).isEmpty();
  }

  @Test
  void reportsAPortInUse() throws Exception {
    Path fresh = temp.resolve("pg-port");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertThatThrownBy(
              () ->
                  EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(fresh, port, false)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Invalid value '" + port + "'")
          .hasMessageContaining(EmbeddedPostgresSettings.PORT);
    }
    assertThat(EmbeddedPostgresServers.find(fresh)).isEmpty();
  }

  @Test
  void reportsADirectoryLockedByAnotherOwner() throws Exception {
    Path owned = Files.createDirectories(temp.resolve("owned"));
    try (FileChannel channel =
            FileChannel.open(
                owned.resolve(LeftoverPostmaster.ZONKY_LOCK_FILE),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      assertThat(lock.isValid()).isTrue();
      assertThatThrownBy(
              () -> EmbeddedPostgresServers.obtain(new EmbeddedPostgresSettings(owned, 0, false)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is in use")
          .hasMessageContaining(EmbeddedPostgresSettings.DATA_DIR);
    }
  }

  private static String show(EmbeddedPostgresServer server, String setting) throws SQLException {
    return query(server, "SHOW " + setting);
  }

  private static String query(EmbeddedPostgresServer server, String sql) throws SQLException {
    try (Connection connection = connect(server);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      assertThat(rows.next()).isTrue();
      return rows.getString(1);
    }
  }

  private static void execute(EmbeddedPostgresServer server, String sql) throws SQLException {
    try (Connection connection = connect(server);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static Connection connect(EmbeddedPostgresServer server) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl(), server.username(), server.password());
  }
}
