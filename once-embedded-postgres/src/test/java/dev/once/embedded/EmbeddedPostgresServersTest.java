package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.ProcessBuilder.Redirect;
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
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM-wide registry against real PostgreSQL processes: sharing, wiping, upgrading, refusals.
 */
class EmbeddedPostgresServersTest {

  @TempDir Path temp;

  private Path dataDirectory;

  @AfterEach
  void stopServer() {
    if (dataDirectory != null) {
      TestServers.stop(dataDirectory);
    }
  }

  @Test
  void sameDirectoryInOneJvmSharesOneServer() throws Exception {
    dataDirectory = temp.resolve("pg");
    Path symlink =
        Files.createSymbolicLink(temp.resolve("link"), Files.createDirectories(dataDirectory));

    EmbeddedPostgresServer.Acquisition first = TestServers.acquire(dataDirectory, 0, false);
    // Other spellings of the same directory; clean=true does not wipe a server already running.
    EmbeddedPostgresServer.Acquisition second =
        TestServers.acquire(temp.resolve("elsewhere/../pg"), 0, true);
    EmbeddedPostgresServer.Acquisition third =
        TestServers.acquire(symlink, first.server().port(), false);

    assertThat(first.started()).isTrue();
    assertThat(second.started()).isFalse();
    assertThat(third.started()).isFalse();
    assertThat(second.server()).isSameAs(first.server());
    assertThat(third.server()).isSameAs(first.server());
    assertThat(TestServers.find(symlink)).containsSame(first.server());

    EmbeddedPostgresServer server = first.server();
    assertThat(server.dataDirectory()).isEqualTo(dataDirectory.toRealPath());
    assertThat(server.jdbcUrl(EmbeddedPostgresServer.DATABASE))
        .isEqualTo("jdbc:postgresql://localhost:" + server.port() + "/postgres");
    assertThat(Integer.parseInt(show(server, "max_connections"))).isGreaterThanOrEqualTo(100);
    assertThat(show(server, "fsync")).isEqualTo("on");
    assertThat(show(server, "synchronous_commit")).isEqualTo("on");
    assertThat(show(server, "listen_addresses")).isEqualTo("localhost");
    assertThat(System.getProperty("ot.epg.working-dir")).as("zonky's setting is restored").isNull();
    // PostgreSQL's output goes to a file in the (private) data directory.
    assertThat(server.logFile()).isEqualTo(server.dataDirectory().resolve("postgres.log"));
    assertThat(Files.readString(server.logFile())).contains("database system is ready");

    int otherPort = server.port() == 65_535 ? 65_534 : server.port() + 1;
    assertThatThrownBy(() -> TestServers.acquire(dataDirectory, otherPort, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(EmbeddedPostgresProperties.PORT)
        .hasMessageContaining("already runs on port " + server.port());
  }

  @Test
  void cleanWipesTheDataWhenTheServerStarts() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);
    execute(server, "CREATE TABLE leftover (id int)");
    assertThat(TestServers.stop(dataDirectory)).isTrue();
    assertThat(TestServers.find(dataDirectory)).isEmpty();

    EmbeddedPostgresServer wiped = TestServers.obtain(dataDirectory, true);

    assertThat(query(wiped, "SELECT to_regclass('leftover') IS NULL")).isEqualTo("t");
  }

  @Test
  void keepsTheDataWithoutClean() throws Exception {
    dataDirectory = temp.resolve("pg");
    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);
    execute(server, "CREATE TABLE kept (id int)");
    TestServers.stop(dataDirectory);

    EmbeddedPostgresServer restarted = TestServers.obtain(dataDirectory, false);

    assertThat(query(restarted, "SELECT to_regclass('kept') IS NOT NULL")).isEqualTo("t");
    assertThat(restarted.password()).as("the password is kept").isEqualTo(server.password());
  }

  /**
   * A data directory made before passwords (zonky's initdb {@code -A trust}, no password file) is
   * upgraded at the next start, before the server listens, and keeps its data.
   */
  @Test
  void aTrustClusterOfTheOldSetupIsUpgradedAndKeepsItsData() throws Exception {
    dataDirectory = temp.resolve("pg");
    // The old setup, as it was: zonky initialises and starts the cluster; no password anywhere.
    // (Its binaries from the shop's checked cache, not from zonky's shared /tmp/embedded-pg.)
    Path cache =
        EmbeddedPostgresServer.cache(
            EmbeddedPostgresServer.cacheHome(), LogFactory.getLog(getClass()));
    try (EmbeddedPostgres old =
            EmbeddedPostgresServer.builder(cache)
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setLocaleConfig("locale", "C")
                .setOutputRedirector(Redirect.DISCARD)
                .setErrorRedirector(Redirect.DISCARD)
                .start();
        Connection connection = old.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE kept (note text)");
      statement.execute("INSERT INTO kept VALUES ('from the trust days')");
    }
    assertThat(Files.readString(dataDirectory.resolve("pg_hba.conf"))).contains("trust");
    assertThat(dataDirectory.resolve(EmbeddedPostgresServer.PASSWORD_FILE)).doesNotExist();

    EmbeddedPostgresServer server = TestServers.obtain(dataDirectory, false);

    EmbeddedPostgresSecurityTest.assertOnlyThePasswordGetsIn(server);
    EmbeddedPostgresSecurityTest.assertEveryRuleAsksForAPassword(server);
    assertThat(EmbeddedPostgresSecurityTest.query(server, "SELECT note FROM kept"))
        .isEqualTo("from the trust days");
  }

  @Test
  void refusesADirectoryThatIsNotAPostgresCluster() throws Exception {
    Path notes = Files.createDirectories(temp.resolve("notes"));
    Path precious = Files.writeString(notes.resolve("precious.txt"), "keep me");

    assertThatThrownBy(() -> TestServers.obtain(notes, true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Refusing to wipe")
        .hasMessageContaining(EmbeddedPostgresProperties.DATA_DIR);
    assertThatThrownBy(() -> TestServers.obtain(notes, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(EmbeddedPostgresProperties.DATA_DIR)
        .hasMessageContaining("not a PostgreSQL data directory");
    assertThat(precious).hasContent("keep me");
    assertThat(TestServers.find(notes)).isEmpty();
  }

  @Test
  void reportsAPortInUseOrOutOfRange() throws Exception {
    Path fresh = temp.resolve("pg-port");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertPortRefused(fresh, taken.getLocalPort());
    }
    assertPortRefused(fresh, -1);
    assertPortRefused(fresh, 65_536);
    assertThat(TestServers.find(fresh)).isEmpty();
  }

  private static void assertPortRefused(Path dataDirectory, int port) {
    assertThatThrownBy(() -> TestServers.acquire(dataDirectory, port, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Invalid value '" + port + "'")
        .hasMessageContaining(EmbeddedPostgresProperties.PORT);
  }

  @Test
  void reportsADirectoryLockedByAnotherOwner() throws Exception {
    Path owned = Files.createDirectories(temp.resolve("owned"));
    try (FileChannel channel =
            FileChannel.open(
                owned.resolve("epg-lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      assertThat(lock.isValid()).isTrue();
      assertThatThrownBy(() -> TestServers.obtain(owned, false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is in use")
          .hasMessageContaining(EmbeddedPostgresProperties.DATA_DIR);
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
    return DriverManager.getConnection(
        server.jdbcUrl(EmbeddedPostgresServer.DATABASE),
        EmbeddedPostgresServer.USERNAME,
        server.password());
  }
}
