package dev.once.spring;

import dev.once.postgres.OnceSchema;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Migrates Once's own tables with Flyway at start: schema {@value OnceSchema#SCHEMA}, history table
 * {@value #HISTORY_TABLE}, independent of the application's own Flyway migrations. Turned off with
 * {@code once.schema.migrate=false} for teams that apply the scripts themselves.
 */
public final class OnceSchemaMigration {
  private static final Logger log = LoggerFactory.getLogger(OnceSchemaMigration.class);

  /** Flyway history table of Once's scripts, inside schema {@value OnceSchema#SCHEMA}. */
  public static final String HISTORY_TABLE = "once_schema_history";

  private final int applied;

  public OnceSchemaMigration(DataSource dataSource) {
    this.applied =
        Flyway.configure(OnceSchemaMigration.class.getClassLoader())
            .dataSource(dataSource)
            .schemas(OnceSchema.SCHEMA)
            .createSchemas(true)
            .table(HISTORY_TABLE)
            .locations(OnceSchema.LOCATION)
            .load()
            .migrate()
            .migrationsExecuted;
    if (applied > 0) {
      log.info("Applied {} Once schema migration(s)", applied);
    }
  }

  /** How many scripts this start applied. */
  public int applied() {
    return applied;
  }
}
