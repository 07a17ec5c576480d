package dev.once.verify.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain JDBC on one auto-commit connection to the shop's database as its owner: what the in-process
 * benchmark asked of the shop's JdbcClient. Not thread-safe.
 */
final class Sql implements AutoCloseable {
  private final Connection connection;

  Sql(Connection connection) throws SQLException {
    this.connection = connection;
    connection.setAutoCommit(true);
  }

  Connection connection() {
    return connection;
  }

  /** The first column of the first row as a long (a count). */
  long number(String sql, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(sql, params);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of every row, as doubles. */
  List<Double> doubles(String sql, Object... params) throws SQLException {
    List<Double> values = new ArrayList<>();
    try (PreparedStatement s = prepare(sql, params);
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        values.add(rs.getDouble(1));
      }
    }
    return values;
  }

  /** The first column of the first row, as text. */
  String text(String sql) throws SQLException {
    try (PreparedStatement s = prepare(sql);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }

  int update(String sql, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(sql, params)) {
      return s.executeUpdate();
    }
  }

  private PreparedStatement prepare(String sql, Object... params) throws SQLException {
    PreparedStatement s = connection.prepareStatement(sql);
    try {
      for (int i = 0; i < params.length; i++) {
        if (params[i] == null) {
          s.setNull(i + 1, Types.VARCHAR);
        } else if (params[i] instanceof String[] array) {
          s.setArray(i + 1, connection.createArrayOf("text", array));
        } else {
          s.setObject(i + 1, params[i]);
        }
      }
      return s;
    } catch (SQLException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
