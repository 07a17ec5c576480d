package dev.once.spring;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The database role an application connects as, for migrations that run as another role (the schema
 * owner) and grant the application exactly what it needs. Flyway scripts receive it in the
 * placeholder {@value #PLACEHOLDER}, already escaped for a SQL string literal.
 */
public final class ApplicationRole {

  /** Name of the Flyway placeholder that holds the application's role. */
  public static final String PLACEHOLDER = "application_role";

  private ApplicationRole() {}

  /**
   * Asks the database which role the data source's connections run as ({@code current_user}), which
   * is right however the user name was given (property, URL, connection details).
   *
   * @param dataSource the application's data source
   * @return the role name
   * @throws IllegalStateException if the database cannot be asked
   */
  public static String of(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT current_user")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "Cannot find the application's database role (SELECT current_user): " + e.getMessage(),
          e);
    }
  }

  /**
   * The role as the value of the {@value #PLACEHOLDER} placeholder: its quotes doubled, because the
   * scripts use it inside a string literal.
   *
   * @param role a role name
   * @return the escaped name
   */
  public static String placeholderValue(String role) {
    return role.replace("'", "''");
  }
}
