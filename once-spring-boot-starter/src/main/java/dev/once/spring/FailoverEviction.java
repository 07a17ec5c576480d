package dev.once.spring;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.SQLExceptionOverride;
import dev.once.failures.TransientFailures;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Makes every HikariCP pool of the application close a connection that failed with a state after
 * which it can no longer write ({@link TransientFailures#leavesConnectionUseless}: {@code 25006}
 * read_only_sql_transaction, {@code 57P04} database_dropped) instead of lending it again.
 *
 * <p>Why: after a failover behind a DNS name or a virtual IP, the pool's open connections still
 * reach the old server, now a read-only standby. Hikari drops a connection on a broken socket
 * (SQLSTATE class {@code 08}) but not on {@code 25006}, so without this every write would fail
 * until the connection's {@code maxLifetime} (30 minutes by default). With it, each failed write
 * closes its connection; the request answers 503 with {@code Retry-After}, and the retry gets a new
 * connection, which reaches whatever server the address now names. Connections that only read are
 * not touched; they fail nothing.
 *
 * <p>A pool whose {@code exceptionOverride} or {@code exceptionOverrideClassName} the application
 * set keeps the application's; Once then logs once that failover eviction is the application's
 * business. Loaded only when HikariCP is present and {@code once.datasource.failover-eviction} is
 * not {@code false}; each pool it changes is named in the log at start. The relay's own pool copies
 * the application's pool, this setting included.
 */
final class FailoverEviction implements SQLExceptionOverride, BeanPostProcessor {
  private static final Logger log = LoggerFactory.getLogger(FailoverEviction.class);

  @java.lang.Override
  public Override adjudicate(SQLException failure) {
    return failure.getSQLState() != null
            && TransientFailures.leavesConnectionUseless(failure.getSQLState())
        ? Override.MUST_EVICT
        : Override.CONTINUE_EVICT;
  }

  /** Installs this in a Hikari pool before it starts, unless the application chose its own. */
  @java.lang.Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (bean instanceof HikariDataSource hikari && !hikari.isRunning()) {
      if (hikari.getExceptionOverride() == null && hikari.getExceptionOverrideClassName() == null) {
        hikari.setExceptionOverride(this);
        log.info(
            "Once set the exception override of the Hikari pool of bean '{}': a connection that"
                + " fails because its server turned read-only (a failover) is closed, not lent"
                + " again. once.datasource.failover-eviction=false leaves the pool as it is",
            beanName);
      } else {
        log.info(
            "The pool of bean '{}' has its own exception override: Once does not install its"
                + " eviction of read-only connections there (see docs/outbox.md, failover)",
            beanName);
      }
    }
    return bean;
  }
}
