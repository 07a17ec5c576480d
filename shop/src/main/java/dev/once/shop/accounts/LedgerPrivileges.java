package dev.once.shop.accounts;

import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Warns at start when the shop connects with more rights than it needs, so that the database can no
 * longer stop a bug or a stolen password from bypassing the ledger: a superuser, the owner of the
 * tables, or a role that may update a balance directly. The shop still runs (a single-role database
 * is a legitimate choice for a trial); docs/security.md says how to split the roles.
 */
@Component
class LedgerPrivileges {
  private static final Logger log = LoggerFactory.getLogger(LedgerPrivileges.class);

  private static final String QUERY =
      """
      SELECT r.rolsuper AS superuser,
             pg_has_role(current_user, c.relowner, 'USAGE') AS owner,
             has_column_privilege('account', 'balance', 'UPDATE') AS updates_balance,
             has_table_privilege('operation', 'UPDATE, DELETE, TRUNCATE') AS rewrites_journal
      FROM pg_roles r, pg_class c
      WHERE r.rolname = current_user AND c.oid = 'operation'::regclass
      """;

  private final DataSource dataSource;

  LedgerPrivileges(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @EventListener(ApplicationReadyEvent.class)
  void warnIfTooPrivileged() {
    List<String> excess = excess(dataSource);
    if (!excess.isEmpty()) {
      log.warn(
          "The shop connects to PostgreSQL as a role that {}: the database cannot stop it from"
              + " changing balances or the journal outside the ledger's rules. Connect as a role"
              + " that owns nothing and migrate as the owner (spring.flyway.user), as"
              + " docs/security.md describes.",
          String.join(", ", excess));
    }
  }

  /** What the data source's role may do beyond the shop's needs; empty when nothing. */
  static List<String> excess(DataSource dataSource) {
    return JdbcClient.create(dataSource)
        .sql(QUERY)
        .query(
            (rs, row) -> {
              List<String> excess = new ArrayList<>();
              if (rs.getBoolean("superuser")) {
                excess.add("is a superuser");
              }
              if (rs.getBoolean("owner")) {
                excess.add("owns the ledger's tables");
              }
              if (rs.getBoolean("updates_balance")) {
                excess.add("may update balances");
              }
              if (rs.getBoolean("rewrites_journal")) {
                excess.add("may update, delete or truncate the journal");
              }
              return excess;
            })
        .single();
  }
}
