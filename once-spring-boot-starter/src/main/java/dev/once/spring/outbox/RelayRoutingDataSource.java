package dev.once.spring.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * The application's DataSource, which hands the threads that run relay handlers ({@link RelayWork})
 * connections of the relay's own pool, and every other thread the application's. One DataSource for
 * the application's transaction manager and repositories, so a handler's {@code @Transactional}
 * method and its {@code JdbcClient} share one connection as usual, only from the relay's pool:
 * requests that hold every connection of the application's pool never make a settlement or an inbox
 * consumer wait, and a burst of relay work never takes the requests' connections. {@code unwrap}
 * and {@code isWrapperFor} reach the application's pool.
 */
final class RelayRoutingDataSource extends DelegatingDataSource {
  private volatile DataSource relay;

  RelayRoutingDataSource(DataSource application) {
    super(application);
  }

  /** Routes relay handlers' connections to {@code pool} from now on. */
  void relayPool(DataSource pool) {
    this.relay = pool;
  }

  @Override
  public Connection getConnection() throws SQLException {
    DataSource pool = relay;
    return pool != null && RelayWork.active()
        ? pool.getConnection()
        : obtainTargetDataSource().getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    DataSource pool = relay;
    return pool != null && RelayWork.active()
        ? pool.getConnection()
        : obtainTargetDataSource().getConnection(username, password);
  }

  /**
   * The application's DataSource for {@code DataSource.class} (so that Spring Boot's {@code
   * DataSourceBuilder.derivedFrom}, which Flyway uses for {@code spring.flyway.user}, derives from
   * the real pool), otherwise as {@link DelegatingDataSource#unwrap}: this, or the application's.
   */
  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface == DataSource.class) {
      return iface.cast(obtainTargetDataSource());
    }
    return super.unwrap(iface);
  }

  @Override
  public String toString() {
    return "RelayRoutingDataSource[" + obtainTargetDataSource() + "]";
  }
}
