package dev.once.shop.database;

import java.nio.file.Path;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Connections to the tests' embedded database as its other roles: the schema owner (for setup the
 * application's role may not do, such as locking an account row) and the superuser. The shop's own
 * {@code DataSource} connects as the application's role.
 */
public final class DatabaseLogins {
  private DatabaseLogins() {}

  /** The schema owner, {@value EmbeddedDatabaseRoles#OWNER}, on the shop's database. */
  public static DataSource owner(Path dataDirectory) {
    EmbeddedPostgresServer server = server(dataDirectory);
    return dataSource(
        server.jdbcUrl(EmbeddedDatabaseRoles.DATABASE),
        EmbeddedDatabaseRoles.OWNER,
        EmbeddedPostgresServer.password(
            server.dataDirectory().resolve(EmbeddedDatabaseRoles.OWNER + ".password")));
  }

  /** The server's superuser, on the shop's database. */
  public static DataSource superuser(Path dataDirectory) {
    EmbeddedPostgresServer server = server(dataDirectory);
    return dataSource(
        server.jdbcUrl(EmbeddedDatabaseRoles.DATABASE),
        EmbeddedPostgresServer.USERNAME,
        server.password());
  }

  /** The role the application connects as. */
  public static String applicationRole() {
    return EmbeddedDatabaseRoles.APPLICATION;
  }

  private static EmbeddedPostgresServer server(Path dataDirectory) {
    return TestServers.find(dataDirectory)
        .orElseThrow(() -> new IllegalStateException("no embedded server on " + dataDirectory));
  }

  private static DataSource dataSource(String url, String user, String password) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    dataSource.setUser(user);
    dataSource.setPassword(password);
    return dataSource;
  }
}
