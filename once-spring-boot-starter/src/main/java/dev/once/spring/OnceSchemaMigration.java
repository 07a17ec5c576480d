package dev.once.spring;

import dev.once.postgres.OnceSchema;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Migrates Once's own tables with Flyway at start: schema {@value OnceSchema#SCHEMA}, history table
 * {@value #HISTORY_TABLE}, independent of the application's own Flyway migrations. Turned off with
 * {@code once.schema.migrate=false} for teams that apply the scripts themselves.
 *
 * <p>The scripts run on the migration data source, normally the schema owner's (the auto-
 * configuration takes the one of the application's Flyway, that is {@code spring.flyway.user}).
 * After every run, the callback {@code afterMigrate.sql} grants the application's role exactly the
 * rights Once needs on its tables (read, insert, update, delete its rows; nothing on the schema),
 * so the application never owns them.
 */
public final class OnceSchemaMigration {
  private static final Logger log = LoggerFactory.getLogger(OnceSchemaMigration.class);

  /** Flyway history table of Once's scripts, inside schema {@value OnceSchema#SCHEMA}. */
  public static final String HISTORY_TABLE = "once_schema_history";

  private final int applied;

  /**
   * Migrates as the data source's own user, with nothing to grant (the application is the owner).
   *
   * @param dataSource the application's data source
   */
  public OnceSchemaMigration(DataSource dataSource) {
    this(dataSource, "");
  }

  /**
   * Migrates on {@code migrator} and grants {@code applicationRole} the rights on Once's tables.
   *
   * @param migrator the data source of the schema owner
   * @param applicationRole the role the application connects as; empty or the migrator's own role
   *     to grant nothing
   */
  public OnceSchemaMigration(DataSource migrator, String applicationRole) {
    this.applied =
        Flyway.configure(OnceSchemaMigration.class.getClassLoader())
            .dataSource(migrator)
            .placeholders(
                Map.of(
                    ApplicationRole.PLACEHOLDER, ApplicationRole.placeholderValue(applicationRole)))
            .schemas(OnceSchema.SCHEMA)
            .createSchemas(true)
            .table(HISTORY_TABLE)
            .locations(OnceSchema.LOCATION)
            // by name, not by a scan of the class path, which a native image cannot list
            .resourceProvider(new OnceMigrationScripts(OnceSchemaMigration.class.getClassLoader()))
            .javaMigrationClassProvider(List::of)
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
