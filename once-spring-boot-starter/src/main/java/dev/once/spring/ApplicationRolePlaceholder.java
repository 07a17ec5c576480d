package dev.once.spring;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;

/**
 * Gives the application's own migrations, run by Spring Boot's Flyway, the placeholder {@value
 * ApplicationRole#PLACEHOLDER}: the role the application's data source connects as ({@link
 * ApplicationRole#of}, escaped for a string literal), so that migrations run as the schema owner
 * can grant that role what it needs, as Once's own do. A value the application set ({@code
 * spring.flyway.placeholders.application_role}) is kept. A bean of {@link OnceAutoConfiguration}
 * when Boot's Flyway support is on the class path.
 */
final class ApplicationRolePlaceholder implements FlywayConfigurationCustomizer {

  private final Supplier<DataSource> dataSource;

  /** The application's data source, if there is exactly one (else nothing is added). */
  ApplicationRolePlaceholder(Supplier<DataSource> dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public void customize(FluentConfiguration flyway) {
    DataSource application = dataSource.get();
    if (application == null || flyway.getPlaceholders().containsKey(ApplicationRole.PLACEHOLDER)) {
      return;
    }
    Map<String, String> placeholders = new HashMap<>(flyway.getPlaceholders());
    placeholders.put(
        ApplicationRole.PLACEHOLDER,
        ApplicationRole.placeholderValue(ApplicationRole.of(application)));
    flyway.placeholders(placeholders);
  }
}
