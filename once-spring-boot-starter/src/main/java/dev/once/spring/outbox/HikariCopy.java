package dev.once.spring.outbox;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Copies a Hikari pool's settings into a smaller pool; loaded only when HikariCP is present. */
final class HikariCopy {
  private HikariCopy() {}

  /** A pool of {@code size} like {@code application}'s, or {@code null} if it is not Hikari. */
  static DataSource of(DataSource application, int size) {
    HikariDataSource hikari = unwrap(application);
    if (hikari == null) {
      return null;
    }
    HikariConfig config = new HikariConfig();
    hikari.copyStateTo(config);
    config.setPoolName(
        (hikari.getPoolName() == null ? "pool" : hikari.getPoolName()) + "-once-relay");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setMetricRegistry(null);
    config.setMetricsTrackerFactory(null);
    config.setHealthCheckRegistry(null);
    return new HikariDataSource(config);
  }

  private static HikariDataSource unwrap(DataSource dataSource) {
    if (dataSource instanceof HikariDataSource hikari) {
      return hikari;
    }
    try {
      return dataSource.isWrapperFor(HikariDataSource.class)
          ? dataSource.unwrap(HikariDataSource.class)
          : null;
    } catch (SQLException e) {
      return null;
    }
  }
}
