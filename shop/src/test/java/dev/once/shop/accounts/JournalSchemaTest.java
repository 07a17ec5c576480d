package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The journal's indexes: exactly what its queries use, nothing that only costs on every insert. */
class JournalSchemaTest extends ShopIntegrationTest {
  @Autowired private DataSource dataSource;

  @Test
  void seqHasNoUniqueIndexOfItsOwn() {
    List<String> indexes =
        jdbc.sql(
                """
                SELECT indexname || ': ' || indexdef FROM pg_indexes
                WHERE schemaname = 'public' AND tablename = 'operation'
                ORDER BY indexname
                """)
            .query(String.class)
            .list();
    assertThat(indexes)
        .noneMatch(definition -> definition.endsWith("(seq)"))
        .anyMatch(
            definition ->
                definition.startsWith("operation_account_seq_idx: CREATE UNIQUE INDEX")
                    && definition.endsWith("(account_id, seq)"));
  }

  @Test
  void pagesAndCursorsUseTheAccountSeqIndexWithoutASort() throws Exception {
    TestClient client = newClient();
    String account = client.openAccountWith("EUR", "1");
    String page =
        AccountRepository.PAGE
            .replace(":account", "'" + account + "'")
            .replace(":afterSeq", "0")
            .replace(":limit", "51");
    String cursor =
        AccountRepository.CURSOR_SEQ
            .replace(":after", "'op_AAAAAAAAAAAAAAAAAAAAAA'")
            .replace(":account", "'" + account + "'");
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        // A tiny table is cheapest to scan; forbid that to see which index the query can use.
        statement.execute("SET LOCAL enable_seqscan = off");
        // Plan as for an account with a long journal, as in production (rolled back below): in a
        // test database every account has a row or two, both indexes then estimate one row for the
        // cursor, and which one wins depends on what earlier tests happened to write.
        statement.execute(
            "INSERT INTO operation (id, account_id, kind, amount, balance_after, created_at)"
                + " SELECT 'op_plan_' || g, '"
                + account
                + "', 'deposit', 1, g, now() FROM generate_series(1, 1000) g");
        statement.execute("ANALYZE operation");
        String pagePlan = plan(statement, page);
        assertThat(pagePlan).contains("operation_account_seq_idx").doesNotContain("Sort");
        assertThat(plan(statement, cursor)).contains("operation_pk");
      } finally {
        connection.rollback();
      }
    }
  }

  private static String plan(Statement statement, String query) throws Exception {
    StringBuilder plan = new StringBuilder();
    try (ResultSet rows = statement.executeQuery("EXPLAIN " + query)) {
      while (rows.next()) {
        plan.append(rows.getString(1)).append('\n');
      }
    }
    return plan.toString();
  }
}
