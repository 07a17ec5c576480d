package dev.once.shop;

import dev.once.spring.ApplicationRole;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop's own infrastructure beans. The clock is the one every timestamp comes from (Once's
 * starter uses it too, as it only defines a clock when none exists), so tests can pin time.
 */
@Configuration(proxyBeanMethods = false)
public class ShopConfiguration {
  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  /**
   * Tells the shop's migrations which role the application connects as: they run as the schema
   * owner ({@code spring.flyway.user}) and {@code afterMigrate.sql} grants that role exactly what
   * the shop needs (docs/security.md).
   */
  @Bean
  FlywayConfigurationCustomizer applicationRolePlaceholder(DataSource dataSource) {
    return flyway -> {
      Map<String, String> placeholders = new HashMap<>(flyway.getPlaceholders());
      placeholders.put(
          ApplicationRole.PLACEHOLDER,
          ApplicationRole.placeholderValue(ApplicationRole.of(dataSource)));
      flyway.placeholders(placeholders);
    };
  }
}
