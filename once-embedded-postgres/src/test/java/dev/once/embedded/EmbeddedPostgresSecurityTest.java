package dev.once.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.once.embedded.secrets.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another local user meets when the embedded server runs: a password on every connection,
 * localhost only, no socket, and private files. One real server for the whole class.
 */
class EmbeddedPostgresSecurityTest {

  @TempDir static Path temp;

  private static EmbeddedPostgresServer server;

  @BeforeAll
  static void start() throws IOException {
    // Others may pass through the folder above: only the data directory's own permissions stop
    // them, as with data/postgres below a project folder.
    Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
    server = TestServers.obtain(temp.resolve("pg"), false);
  }

  @AfterAll
  static void stop() {
    TestServers.stop(temp.resolve("pg"));
  }

  @Test
  void onlyThePasswordFromTheFileGetsIn() throws Exception {
    assertThat(server.password())
        .isEqualTo(
            Files.readString(server.dataDirectory().resolve(EmbeddedPostgresServer.PASSWORD_FILE))
                .strip());
    assertOnlyThePasswordGetsIn(server);
  }

  @Test
  void everyRuleAsksForAPasswordAndOnlyLocalhostListens() throws Exception {
    assertEveryRuleAsksForAPassword(server);
    assertThat(query(server, "SHOW listen_addresses")).isEqualTo("localhost");
    assertThat(query(server, "SHOW unix_socket_directories")).isEmpty();
    assertThat(query(server, "SHOW password_encryption")).isEqualTo("scram-sha-256");
  }

  @Test
  void dataPasswordLogAndBinariesAreTheOwnersOnly() throws Exception {
    Path data = server.dataDirectory();
    assertThat(permissions(data)).isEqualTo("rwx------");
    assertThat(permissions(data.resolve(EmbeddedPostgresServer.PASSWORD_FILE)))
        .isEqualTo("rw-------");
    assertThat(permissions(server.logFile())).isEqualTo("rw-------");
    try (Stream<Path> files = Files.list(data)) {
      assertThat(files.map(EmbeddedPostgresSecurityTest::permissions))
          .as("nothing in the data directory for group or others")
          .allMatch(p -> p.endsWith("------"));
    }
    Path binaries = TestServers.bin(server).getParent();
    assertThat(binaries).startsWith(EmbeddedPostgresServer.cacheHome().resolve("once/postgres"));
    assertThat(permissions(binaries)).isEqualTo("rwx------");
    assertThat(permissions(binaries.getParent())).isEqualTo("rwx------");
    assertThat(permissions(binaries.getParent().getParent())).isEqualTo("rwx------");
  }

  @Test
  void thePostgresLogNeverHoldsThePassword() throws Exception {
    String log = Files.readString(server.logFile(), StandardCharsets.UTF_8);
    assertThat(log).contains("database system is ready").doesNotContain(server.password());
  }

  /** Another OS user, for real: root can act as {@code nobody}. */
  @Test
  void anotherLocalUserCanNeitherReadTheFilesNorConnectWithoutThePassword() throws Exception {
    assumeTrue(OwnerOnly.currentUid() == 0, "needs root to act as another user");
    assumeTrue(onPath("runuser") && onPath("psql"), "needs runuser and psql");
    Path passwordFile = server.dataDirectory().resolve(EmbeddedPostgresServer.PASSWORD_FILE);

    assertThat(asNobody("cat", passwordFile.toString())).startsWith("failed");
    assertThat(asNobody("cat", server.logFile().toString())).startsWith("failed");
    String psql =
        asNobody(
            "psql",
            "-h",
            "localhost",
            "-p",
            Integer.toString(server.port()),
            "-U",
            "postgres",
            "-w", // never prompt
            "-c",
            "SELECT 1");
    assertThat(psql).startsWith("failed").contains("no password supplied");
  }

  static void assertOnlyThePasswordGetsIn(EmbeddedPostgresServer server) throws SQLException {
    String url = server.jdbcUrl(EmbeddedPostgresServer.DATABASE);
    assertThatThrownBy(() -> DriverManager.getConnection(url + "?user=postgres").close())
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("no password was provided");
    assertThatThrownBy(() -> DriverManager.getConnection(url, "postgres", "").close())
        .isInstanceOf(SQLException.class);
    assertThatThrownBy(
            () -> DriverManager.getConnection(url, "postgres", server.password() + "x").close())
        .isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
    assertThat(query(server, "SELECT current_user")).isEqualTo("postgres");
  }

  static void assertEveryRuleAsksForAPassword(EmbeddedPostgresServer server) throws Exception {
    assertThat(Files.readString(server.dataDirectory().resolve("pg_hba.conf")))
        .doesNotContainIgnoringCase("trust");
    assertThat(query(server, "SELECT string_agg(DISTINCT auth_method, ',') FROM pg_hba_file_rules"))
        .isEqualTo("scram-sha-256");
    assertThat(
            query(
                server,
                "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid"
                    + " WHERE rolname = 'postgres'"))
        .isEqualTo("t");
  }

  static String query(EmbeddedPostgresServer server, String sql) throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(
                server.jdbcUrl(EmbeddedPostgresServer.DATABASE),
                EmbeddedPostgresServer.USERNAME,
                server.password());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      assertThat(rows.next()).isTrue();
      return rows.getString(1);
    }
  }

  private static String permissions(Path path) {
    try {
      return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean onPath(String program) {
    return Files.isExecutable(Path.of("/usr/bin", program))
        || Files.isExecutable(Path.of("/usr/sbin", program));
  }

  /** Runs a command as {@code nobody}: its output, prefixed with "failed" if it exited non-zero. */
  private static String asNobody(String... command) throws Exception {
    List<String> line = new ArrayList<>(List.of("runuser", "-u", "nobody", "--"));
    line.addAll(List.of(command));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return (process.exitValue() == 0 ? "" : "failed: ") + output;
  }
}
