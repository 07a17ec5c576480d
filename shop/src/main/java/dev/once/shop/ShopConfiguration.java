package dev.once.shop;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shop's own infrastructure beans. The clock is the one every timestamp comes from (Once's
 * starter uses it too, as it only defines a clock when none exists), so tests can pin time. The
 * role the application connects as reaches the shop's migrations from Once's starter, in the
 * placeholder {@code application_role}: they run as the schema owner ({@code spring.flyway.user})
 * and {@code afterMigrate.sql} grants that role exactly what the shop needs (docs/security.md).
 */
@Configuration(proxyBeanMethods = false)
public class ShopConfiguration {
  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }
}
