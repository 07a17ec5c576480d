package dev.once.embedded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A database of an embedded server in the least-privilege layout that {@link
 * EmbeddedPostgresServer#database} makes: {@link #owner()} ({@code <name>_owner}) owns it and runs
 * the migrations; {@link #application()} ({@code <name>_app}) owns nothing, is no superuser, and
 * gets only what the migrations grant it; only the two may connect. Both passwords are random, in
 * owner-only files {@code <role>.password} of the data directory, and set as SCRAM verifiers.
 *
 * @param server the server
 * @param name the database's name
 * @param owner the schema owner's login
 * @param application the application role's login
 */
public record EmbeddedDatabase(
    EmbeddedPostgresServer server, String name, Login owner, Login application) {

  /** The JDBC URL of this database, without credentials. */
  public String jdbcUrl() {
    return server.jdbcUrl(name);
  }

  /**
   * Another database of the same owner, in the same layout (only the two roles may connect), made
   * if missing; for a service that needs more than one.
   *
   * @param other its name (lower-case letters, digits and {@code _})
   * @return its JDBC URL, without credentials
   * @throws SQLException if it cannot be made
   */
  public String createDatabase(String other) throws SQLException {
    EmbeddedDatabaseRoles.create(this, other);
    return server.jdbcUrl(other);
  }

  /**
   * A new connection to {@code database} of this server as {@code login}.
   *
   * @param database the database's name
   * @param login the owner's, the application's or the server's superuser's
   * @return the connection, auto-commit on
   * @throws SQLException if it fails
   */
  public Connection connect(String database, Login login) throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl(database), login.user(), login.password());
  }
}
