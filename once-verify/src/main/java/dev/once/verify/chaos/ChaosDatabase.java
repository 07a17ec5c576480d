package dev.once.verify.chaos;

import dev.once.verify.failover.ReplicatedPostgres;
import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopLogin;
import dev.once.verify.harness.Sql;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The one PostgreSQL every shop of a run shares: either one chaos starts in its own JVM (gone with
 * the run), a primary and a standby it starts ({@code --failover}), or an external one given on the
 * command line. The checks read it as the schema owner.
 */
final class ChaosDatabase implements AutoCloseable {
  private final AutoCloseable embedded;
  private final ShopLogin login;

  private ChaosDatabase(AutoCloseable embedded, ShopLogin login) {
    this.embedded = embedded;
    this.login = login;
  }

  /** A PostgreSQL in this JVM with the shop's two roles and an empty database. */
  static ChaosDatabase start() throws IOException, SQLException {
    BenchDatabase db = BenchDatabase.start();
    return new ChaosDatabase(db, db.login(BenchDatabase.DATABASE));
  }

  /** A primary and its standby, the same layout; the shops log in with both in one URL. */
  static ChaosDatabase replicated(ReplicatedPostgres.Mode mode) throws IOException, SQLException {
    ReplicatedPostgres pair = ReplicatedPostgres.start(mode);
    return new ChaosDatabase(pair, pair.login());
  }

  /** The primary and standby of a {@link #replicated} database. */
  ReplicatedPostgres pair() {
    if (embedded instanceof ReplicatedPostgres pair) {
      return pair;
    }
    throw new IllegalStateException("not a replicated database");
  }

  /** An external PostgreSQL; refuses one that is unreachable. */
  static ChaosDatabase external(ChaosOptions.ExternalDatabase external) throws SQLException {
    ChaosDatabase db =
        new ChaosDatabase(
            null,
            new ShopLogin(
                external.jdbcUrl(),
                external.appUser(),
                external.appPassword(),
                external.ownerUser(),
                external.ownerPassword()));
    try (Connection c = db.connect()) {
      c.isValid(5);
    }
    return db;
  }

  /** How the shops log in. */
  ShopLogin login() {
    return login;
  }

  /** A new connection as the schema owner, who may read every table of the shop and of Once. */
  Connection connect() throws SQLException {
    return login.connectAsOwner();
  }

  /**
   * Every row of {@code sql} as {@code row} reads it, as the schema owner; a {@code String[]}
   * parameter goes in as a {@code text[]}.
   */
  <T> List<T> rows(String sql, Sql.Row<T> row, Object... params) throws SQLException {
    try (Sql owner = new Sql(connect())) {
      return owner.rows(sql, row, params);
    }
  }

  /** The one row of {@code sql}, a query of whole numbers, as the schema owner. */
  long[] row(String sql) throws SQLException {
    return rows(
            sql,
            rs -> {
              long[] values = new long[rs.getMetaData().getColumnCount()];
              for (int i = 0; i < values.length; i++) {
                values[i] = rs.getLong(i + 1);
              }
              return values;
            })
        .get(0);
  }

  /**
   * How many API clients the shop's database holds, or 0 before its first migration: a run checks
   * everything in the database, so it must start from an empty one.
   */
  long clients() throws SQLException {
    if (!rows("SELECT to_regclass('client') IS NOT NULL", rs -> rs.getBoolean(1)).get(0)) {
      return 0;
    }
    return row("SELECT count(*) FROM client")[0];
  }

  @Override
  public void close() {
    if (embedded != null) {
      try {
        embedded.close();
      } catch (Exception e) {
        System.err.println("could not stop PostgreSQL cleanly: " + e);
      }
    }
  }
}
