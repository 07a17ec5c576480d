package dev.once.spring;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.postgres.OnceSchema;
import java.sql.Connection;
import java.util.List;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ReflectionUtils;

/**
 * What Once reads at run time that a native image must be told about, registered in {@code
 * META-INF/spring/aot.factories}: the SQL scripts of Once's schema (Flyway reads them from {@value
 * OnceSchema#LOCATION}, {@link OnceSchema#script} by name), and {@link
 * BatchInboxConsumer#consumeAll}, which the tracing looks up on each batch consumer's class. The
 * application's own event records and listener methods are registered by the events' AOT processor,
 * which knows them only at build time.
 */
final class OnceRuntimeHints implements RuntimeHintsRegistrar {
  /** The resource pattern of Once's schema scripts. */
  static final String MIGRATIONS = "dev/once/postgres/migration/*.sql";

  @Override
  public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
    hints.resources().registerPattern(MIGRATIONS);
    hints
        .reflection()
        .registerMethod(
            ReflectionUtils.findMethod(
                BatchInboxConsumer.class, "consumeAll", Connection.class, List.class),
            ExecutableMode.INTROSPECT);
  }
}
