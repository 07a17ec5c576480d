import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Runs SQL statements on a database, one autocommitted statement per argument after the login, and
 * prints the first column of each query's rows. For the bench scripts, which have no psql: run it
 * with pgJDBC on the class path, {@code java -cp postgresql.jar bench/lib/Sql.java URL USER
 * PASSWORD-FILE SQL...}.
 */
public class Sql {
  public static void main(String[] args) throws Exception {
    String password = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(args[2]))).trim();
    try (Connection c = DriverManager.getConnection(args[0], args[1], password);
        Statement s = c.createStatement()) {
      for (int i = 3; i < args.length; i++) {
        if (s.execute(args[i])) {
          try (ResultSet rs = s.getResultSet()) {
            while (rs.next()) {
              System.out.println(rs.getString(1));
            }
          }
        }
      }
    }
  }
}
