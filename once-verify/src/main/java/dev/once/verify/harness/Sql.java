package dev.once.verify.harness;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain JDBC on one auto-commit connection (to the shop's database, as a rule as its owner): the
 * queries of the relay benchmark's phases and of chaos's end-state readings. A {@code String[]}
 * parameter goes in as a {@code text[]}, a null as a null. Not thread-safe.
 */
public final class Sql implements AutoCloseable {
  private final Connection connection;

  /** One row of a result set as a value. */
  public interface Row<T> {
    T read(ResultSet rs) throws SQLException;
  }

  public Sql(Connection connection) throws SQLException {
    this.connection = connection;
    connection.setAutoCommit(true);
  }

  public Connection connection() {
    return connection;
  }

  /** The first column of the first row as a long (a count). */
  public long number(String sql, Object... params) throws SQLException {
    try (PreparedStatement s = prepare(sql, params);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of every row, as doubles. */
  public List<Double> doubles(String sql, Object... params) throws SQLException {
    return rows(sql, rs -> rs.getDouble(1), params);
  }

  /** Every row, as {@code row} reads it. */
  public <T> List<T> rows(String sql, Row<T> row, Object... params) throws SQLException {
    List<T> values = new ArrayList<>();
    try (PreparedStatement s = prepare(sql, params);
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        values.add(row.read(rs));
      }
    }
    return values;
  }

  /** The first column of the first row, as text. */
  public String text(String sql) throws SQLException {
    try (PreparedStatement s = prepare(sql);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }

  public int update(String sql, Object... params) throws SQLException {
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
