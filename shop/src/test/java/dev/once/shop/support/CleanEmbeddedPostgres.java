package dev.once.shop.support;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.spring.EmbeddedPostgresSettings;
import dev.once.embedded.spring.EmbeddedPostgresStarter;
import java.util.Optional;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Test-only: with {@value #CLEAN}{@code =true}, wipes the embedded database's data directory before
 * the module's {@link EmbeddedPostgresStarter} starts the server (which happens later, when the
 * context is refreshed), unless this JVM already runs it (so all test contexts of a JVM share one
 * database, wiped once).
 */
public class CleanEmbeddedPostgres implements EnvironmentPostProcessor, Ordered {

  /** Wipe the data directory when the server is started by this JVM. */
  public static final String CLEAN = "once.embedded-postgres.clean";

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 1; // after application.yml and the test's properties
  }

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    Optional<EmbeddedPostgresSettings> settings = EmbeddedPostgresSettings.wanted(environment);
    if (settings.isPresent() && Binder.get(environment).bind(CLEAN, Boolean.class).orElse(false)) {
      EmbeddedPostgresServer.wipeUnlessRunning(
          settings.get().dataDirectory(), LogFactory.getLog(CleanEmbeddedPostgres.class));
    }
  }
}
