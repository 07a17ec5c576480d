package dev.once.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The DDL of Once's tables, as versioned SQL scripts that Flyway can run from {@link #LOCATION}
 * (with its own history table in schema {@link #SCHEMA}, which Flyway creates), or that a team
 * which owns its migrations copies into its own after {@code CREATE SCHEMA once}.
 */
public final class OnceSchema {
  private OnceSchema() {}

  /** The PostgreSQL schema that holds every Once table. */
  public static final String SCHEMA = "once";

  /** Flyway location of the scripts. */
  public static final String LOCATION = "classpath:dev/once/postgres/migration";

  /** The scripts in the order they must run. */
  public static final List<String> SCRIPTS =
      List.of(
          "V1__idempotency.sql",
          "V2__outbox.sql",
          "V3__guards_always.sql",
          "V4__relay.sql",
          "V5__inbox.sql",
          "V6__key_written_once.sql",
          "V7__held_rows.sql",
          "V8__trace_context.sql",
          "V9__discarded_rows.sql",
          "V10__paused_types.sql",
          "V11__outbox_archive.sql",
          "V12__outbox_replay.sql");

  /** The text of one script from {@link #SCRIPTS}. */
  public static String script(String name) {
    if (!SCRIPTS.contains(name)) {
      throw new IllegalArgumentException("unknown Once schema script: " + name);
    }
    String resource = "/dev/once/postgres/migration/" + name;
    try (InputStream in = OnceSchema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
