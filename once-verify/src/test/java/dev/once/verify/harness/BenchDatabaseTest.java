package dev.once.verify.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.embedded.EmbeddedPostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bench's database: the module's server and roles, a second database, and a clean close. */
class BenchDatabaseTest {

  @Test
  void holdsTheShopsTwoRolesAndASecondDatabaseAndStopsForGood() throws Exception {
    BenchDatabase db = BenchDatabase.start();
    long postmaster;
    try {
      ShopLogin login = db.login(BenchDatabase.DATABASE);
      assertEquals(db.jdbcUrl(), login.jdbcUrl());
      assertEquals("shop_app", login.appUser());
      assertEquals("shop_owner", login.ownerUser());
      assertNotEquals(login.appPassword(), login.ownerPassword());
      assertTrue(db.serverVersion().startsWith("17."), db.serverVersion());
      try (Connection c = db.connectAsApplication()) {
        assertEquals("shop_app", one(c, "SELECT current_user"));
        assertEquals("shop", one(c, "SELECT current_database()"));
      }
      db.createDatabase(BenchDatabase.ORDERS_DATABASE);
      try (Connection c = db.connectAsOwner(BenchDatabase.ORDERS_DATABASE)) {
        assertEquals(
            "shop_owner",
            one(
                c,
                "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'shop_orders'"));
      }
      postmaster = db.postmasterPid();
      assertTrue(postmaster > 0);
    } finally {
      db.close();
    }
    db.close(); // twice is fine
    // pg_ctl stop returns once the pid file is gone, a moment before the process ends.
    ProcessHandle.of(postmaster)
        .ifPresent(p -> p.onExit().completeOnTimeout(p, 10, TimeUnit.SECONDS).join());
    assertFalse(ProcessHandle.of(postmaster).map(EmbeddedPostgresServer::isRunning).orElse(false));
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getString(1);
    }
  }
}
