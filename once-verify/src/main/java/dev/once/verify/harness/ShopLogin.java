package dev.once.verify.harness;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How a shop process logs in to its PostgreSQL: the JDBC URL, the application's role (what the shop
 * serves requests as) and the schema owner (what its migrations run as). Passwords travel to the
 * shop through its environment, never its command line.
 *
 * @param jdbcUrl for example {@code jdbc:postgresql://localhost:5432/shop}
 * @param appUser {@code spring.datasource.username}
 * @param appPassword its password
 * @param ownerUser {@code spring.flyway.user}
 * @param ownerPassword its password
 */
public record ShopLogin(
    String jdbcUrl, String appUser, String appPassword, String ownerUser, String ownerPassword) {

  /** The application's role, as the shop serves requests. */
  public DataSource appDataSource() {
    return dataSource(appUser, appPassword);
  }

  /** The schema owner, who may read and write every table of the shop and of Once. */
  public DataSource ownerDataSource() {
    return dataSource(ownerUser, ownerPassword);
  }

  /** A new connection as the schema owner. */
  public Connection connectAsOwner() throws SQLException {
    return ownerDataSource().getConnection();
  }

  private DataSource dataSource(String user, String password) {
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setUrl(jdbcUrl);
    source.setUser(user);
    source.setPassword(password);
    return source;
  }

  @Override
  public String toString() {
    return "ShopLogin[" + jdbcUrl + ", app " + appUser + ", owner " + ownerUser + "]";
  }
}
