package dev.once.testing;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} whose connections come from one function: for tests that hand the code under
 * test a connection of their own choosing (one kept open across requests, or none at all, as an
 * unreachable server gives).
 */
@FunctionalInterface
public interface ConnectionSource extends DataSource {
  @Override
  Connection getConnection() throws SQLException;

  @Override
  default Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  default PrintWriter getLogWriter() {
    return null;
  }

  @Override
  default void setLogWriter(PrintWriter out) {}

  @Override
  default void setLoginTimeout(int seconds) {}

  @Override
  default int getLoginTimeout() {
    return 0;
  }

  @Override
  default Logger getParentLogger() {
    return Logger.getGlobal();
  }

  @Override
  default <T> T unwrap(Class<T> iface) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  default boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
