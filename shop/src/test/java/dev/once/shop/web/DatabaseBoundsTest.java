package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.once.shop.support.ShopIntegrationTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The shop's bounds on a database that stops answering (docs/idempotency.md, docs/verify.md): the
 * client side, a socket time-out of 30 s on every connection of its pool (the relay's pool is a
 * copy of it), and the server side, a session idle in a transaction for 30 s is ended, so a row
 * lock of a client the network cut off goes (once-verify's DeadClientLockTest shows that
 * mechanism).
 */
class DatabaseBoundsTest extends ShopIntegrationTest {
  @Autowired DataSource dataSource;

  @Test
  void everyPooledConnectionHasBothBounds() throws SQLException {
    HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);
    assertThat(pool.getDataSourceProperties())
        .containsEntry("socketTimeout", "30")
        .containsEntry("options", "-c idle_in_transaction_session_timeout=30s");
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW idle_in_transaction_session_timeout")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("30s");
    }
  }
}
