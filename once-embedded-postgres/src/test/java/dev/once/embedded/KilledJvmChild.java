package dev.once.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * Child JVM for {@link EmbeddedPostgresKillIT}: starts the embedded server on the data directory
 * given as the only argument (through the production code path), commits a row, prints {@link
 * #MARKER} with the postmaster's PID and port, then blocks until stdin closes or it is killed.
 */
public final class KilledJvmChild {

  /** Prefix of the line announcing {@code pid=<pid> port=<port>}. */
  public static final String MARKER = "KILLED-JVM-CHILD-READY";

  private KilledJvmChild() {}

  /**
   * Entry point.
   *
   * @param args the data directory
   * @throws Exception on any failure, which ends the child with a stack trace
   */
  public static void main(String[] args) throws Exception {
    EmbeddedPostgresServer server = TestServers.obtain(Path.of(args[0]), false);
    try (Connection connection =
            DriverManager.getConnection(
                server.jdbcUrl(EmbeddedPostgresServer.DATABASE),
                EmbeddedPostgresServer.USERNAME,
                server.password());
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE survivor (id int PRIMARY KEY, note text NOT NULL)");
      statement.execute("INSERT INTO survivor VALUES (1, 'committed before kill -9')");
    } // autocommit: both statements are committed here
    System.out.println(
        MARKER + " pid=" + TestServers.postmasterPid(server) + " port=" + server.port());
    System.out.flush();
    // Block without a sleep: the parent kills us, or closes stdin if it gave up.
    while (System.in.read() != -1) {
      // ignore input
    }
  }
}
