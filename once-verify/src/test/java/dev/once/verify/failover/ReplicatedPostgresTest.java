package dev.once.verify.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.verify.failover.ReplicatedPostgres.Mode;
import dev.once.verify.harness.ShopLogin;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The primary and standby of {@code chaos --failover}, on real servers: with a synchronous standby
 * every acknowledged commit survives two failovers (back and forth, the old primary rebuilt as the
 * standby each time) and the multi-host URL finds the new primary; the broken mode loses
 * acknowledged commits, which is what the checker's self-test relies on.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplicatedPostgresTest {

  @Test
  void aSynchronousStandbyKeepsEveryAcknowledgedCommitAcrossTwoFailovers() throws Exception {
    try (ReplicatedPostgres pair = ReplicatedPostgres.start(Mode.SYNC)) {
      ShopLogin login = pair.login();
      execute(login, "CREATE TABLE acked (n int PRIMARY KEY)");
      List<Integer> acked = new ArrayList<>();
      String first = pair.primaryName();
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 50; i++) {
          int n = round * 100 + i;
          execute(login, "INSERT INTO acked VALUES (" + n + ")");
          acked.add(n);
        }
        ReplicatedPostgres.Failover f = pair.failover();
        assertThat(f.to()).isEqualTo(pair.primaryName()).isNotEqualTo(f.from());
        assertThat(f.promoted()).isGreaterThan(f.killed());
        assertThat(rows(login)).as("after failover %d", round + 1).containsExactlyElementsOf(acked);
        assertThatThrownBy(pair::failover) // no standby until the rebuild
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("not synchronous");
        pair.rebuild();
      }
      assertThat(pair.primaryName()).isEqualTo(first); // back where it began
      execute(login, "INSERT INTO acked VALUES (1000)"); // and the synchronous standby is back
      acked.add(1000);
      assertThat(rows(login)).containsExactlyElementsOf(acked);
    }
  }

  @Test
  void theBrokenModeLosesAcknowledgedCommitsInAFailover() throws Exception {
    try (ReplicatedPostgres pair = ReplicatedPostgres.start(Mode.ASYNC_UNFLUSHED)) {
      ShopLogin login = pair.login();
      execute(login, "CREATE TABLE acked (n int PRIMARY KEY)");
      pair.rebuild(); // the table is on the standby: a flush, then nothing for 10 s
      for (int n = 0; n < 50; n++) {
        execute(login, "INSERT INTO acked VALUES (" + n + ")");
      }
      pair.failover();
      assertThat(rows(login)).as("acknowledged, not on the standby").hasSizeLessThan(50);
    }
  }

  private static void execute(ShopLogin login, String sql) throws SQLException {
    try (Connection c = login.connectAsOwner();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static List<Integer> rows(ShopLogin login) throws SQLException {
    List<Integer> rows = new ArrayList<>();
    try (Connection c = login.connectAsOwner();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT n FROM acked ORDER BY n")) {
      while (rs.next()) {
        rows.add(rs.getInt(1));
      }
    }
    return rows;
  }
}
