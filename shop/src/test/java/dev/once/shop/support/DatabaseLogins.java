package dev.once.shop.support;

import dev.once.embedded.EmbeddedDatabase;
import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.Login;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.apache.commons.logging.LogFactory;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Connections to the tests' embedded database as its other roles: the schema owner (for setup the
 * application's role may not do, such as locking an account row) and the superuser. The shop's own
 * {@code DataSource} connects as the application's role.
 */
public final class DatabaseLogins {
  /** The shop's database (once.embedded-postgres.database in application.yml). */
  private static final String DATABASE = "shop";

  private DatabaseLogins() {}

  /** The schema owner, {@code shop_owner}, on the shop's database. */
  public static DataSource owner(Path dataDirectory) {
    EmbeddedDatabase database = database(dataDirectory);
    return dataSource(database.jdbcUrl(), database.owner());
  }

  /** The server's superuser, on the shop's database. */
  public static DataSource superuser(Path dataDirectory) {
    EmbeddedDatabase database = database(dataDirectory);
    return dataSource(database.jdbcUrl(), database.server().superuser());
  }

  /** The role the application connects as. */
  public static String applicationRole() {
    return DATABASE + "_app";
  }

  private static EmbeddedDatabase database(Path dataDirectory) {
    EmbeddedPostgresServer server =
        EmbeddedPostgresServer.find(dataDirectory)
            .orElseThrow(() -> new IllegalStateException("no embedded server on " + dataDirectory));
    return server.database(DATABASE, LogFactory.getLog(DatabaseLogins.class));
  }

  private static DataSource dataSource(String url, Login login) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(url);
    dataSource.setUser(login.user());
    dataSource.setPassword(login.password());
    return dataSource;
  }
}
