package dev.once.shop;

import java.time.Clock;
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
}
