package dev.once.verify.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopLogin;
import java.net.InetSocketAddress;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client cut off inside a transaction (a blackhole: no reset, no end of stream) leaves its server
 * session idle in transaction, holding its row locks, and the server never learns that the client
 * is gone. Without a bound that lock stays; with {@code idle_in_transaction_session_timeout} in the
 * connection's startup options (what the shop's pool sets, 30 s) the server ends the session and
 * the lock goes. The bound here is 1 s, so that the test is short.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DeadClientLockTest {

  @Test
  void aRowLockOfAClientCutOffIsHeldWithoutTheBoundAndReleasedWithIt() throws Exception {
    try (BenchDatabase db = BenchDatabase.start();
        Connection owner = db.connectAsOwner(BenchDatabase.DATABASE)) {
      execute(owner, "CREATE TABLE account (id int PRIMARY KEY, balance int)");
      execute(owner, "INSERT INTO account VALUES (1, 100)");
      ShopLogin login = db.login(BenchDatabase.DATABASE);
      execute(owner, "GRANT SELECT, UPDATE ON account TO " + login.appUser());
      URI uri = URI.create(login.jdbcUrl().substring("jdbc:".length()));
      InetSocketAddress server = new InetSocketAddress(uri.getHost(), uri.getPort());

      // No bound: the lock outlives the client, and another transaction times out on it.
      try (FaultProxy route = FaultProxy.start("dead-client->postgres", server)) {
        Connection cutOff = lockThroughProxy(login, uri, route, null);
        route.blackhole();
        assertThatThrownBy(() -> lockDirectly(owner, "3s"))
            .isInstanceOf(SQLException.class)
            .hasFieldOrPropertyWithValue("SQLState", "55P03"); // lock_not_available
        route.resetAll(); // the client goes for good: the server sees it now and lets go
        closeQuietly(cutOff);
      }

      // With the bound: the server ends the cut-off session and the waiting transaction gets it.
      try (FaultProxy route = FaultProxy.start("bounded-client->postgres", server)) {
        Connection cutOff =
            lockThroughProxy(login, uri, route, "-c idle_in_transaction_session_timeout=1s");
        route.blackhole();
        assertThat(lockDirectly(owner, "60s")).isEqualTo(100);
        route.resetAll();
        closeQuietly(cutOff);
      }
    }
  }

  /** A connection through {@code route} that locks the account's row and keeps its transaction. */
  private static Connection lockThroughProxy(
      ShopLogin login, URI uri, FaultProxy route, String options) throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", login.appUser());
    props.setProperty("password", login.appPassword());
    if (options != null) {
      props.setProperty("options", options);
    }
    Connection c =
        DriverManager.getConnection(
            "jdbc:postgresql://localhost:" + route.port() + uri.getPath(), props);
    c.setAutoCommit(false);
    execute(c, "UPDATE account SET balance = balance + 0 WHERE id = 1");
    return c;
  }

  /** Locks the row on a direct connection, waiting at most {@code lockTimeout}; its balance. */
  private static int lockDirectly(Connection c, String lockTimeout) throws SQLException {
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SET LOCAL lock_timeout = '" + lockTimeout + "'");
      try (var rs = s.executeQuery("SELECT balance FROM account WHERE id = 1 FOR UPDATE")) {
        rs.next();
        return rs.getInt(1);
      }
    } finally {
      c.rollback();
      c.setAutoCommit(true);
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException e) {
      // its socket was reset: nothing left to close
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
