package dev.once.shop.database;

import java.util.Optional;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Test-only: with {@value #CLEAN}{@code =true}, wipes the embedded database's data directory before
 * the shop's {@link EmbeddedPostgresEnvironmentPostProcessor} starts the server, unless this JVM
 * already runs it (so all test contexts of a JVM share one database, wiped once).
 */
public class CleanEmbeddedPostgres implements EnvironmentPostProcessor, Ordered {

  /** Wipe the data directory when the server is started by this JVM. */
  public static final String CLEAN = "shop.embedded-postgres.clean";

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 1; // just before the shop's post-processor
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    Optional<EmbeddedPostgresEnvironmentPostProcessor.Settings> settings =
        EmbeddedPostgresEnvironmentPostProcessor.settings(environment);
    if (settings.isPresent() && Binder.get(environment).bind(CLEAN, Boolean.class).orElse(false)) {
      TestServers.wipeUnlessRunning(settings.get().dataDirectory());
    }
  }
}
