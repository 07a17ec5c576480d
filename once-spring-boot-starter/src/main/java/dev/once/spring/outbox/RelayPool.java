package dev.once.spring.outbox;

import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * The relay's own connections: a small Hikari pool with the application pool's settings (URL,
 * login, driver properties), so that the relay's claims, heartbeats, outcomes and its handlers'
 * transactions (a settlement, an inbox consumer's effect, through {@link RelayRoutingDataSource})
 * never queue behind the requests for a pooled connection, and relay work never takes the requests'
 * connections. Closed with the application context.
 */
final class RelayPool implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RelayPool.class);
  private static final boolean HIKARI =
      ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource", RelayPool.class.getClassLoader());

  private final DataSource dataSource;
  private final AutoCloseable own;

  private RelayPool(DataSource dataSource, AutoCloseable own) {
    this.dataSource = dataSource;
    this.own = own;
  }

  /**
   * A pool of {@code size} connections copied from {@code application} if it is (or wraps) a Hikari
   * pool and {@code size} is positive; otherwise the application's DataSource itself.
   */
  static RelayPool of(DataSource application, int size) {
    if (size <= 0) {
      return new RelayPool(application, null);
    }
    DataSource copy = HIKARI ? HikariCopy.of(application, size) : null;
    if (copy == null) {
      log.info(
          "The application's DataSource is not a Hikari pool: the outbox relay shares its"
              + " connections (once.outbox.relay.pool-size=0 says so and silences this).");
      return new RelayPool(application, null);
    }
    if (application instanceof RelayRoutingDataSource routing) {
      routing.relayPool(copy);
    }
    return new RelayPool(copy, (AutoCloseable) copy);
  }

  /** Where the relay's own statements run. */
  DataSource dataSource() {
    return dataSource;
  }

  /** Whether the relay has connections of its own. */
  boolean own() {
    return own != null;
  }

  @Override
  public void close() throws Exception {
    if (own != null) {
      own.close();
    }
  }
}
