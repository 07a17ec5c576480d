package dev.once.test.spring;

import dev.once.test.fixtures.TestPostgres;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a Spring Boot test's {@code spring.datasource.*} at {@link TestPostgres}'s database {@code
 * postgres} (the starter migrates Once's schema into it at start): call it from a
 * {@code @DynamicPropertySource} method.
 */
public final class TestPostgresProperties {
  private TestPostgresProperties() {}

  /** Sets {@code spring.datasource.url}, {@code username} and {@code password}. */
  public static void registerDataSource(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", TestPostgres::jdbcUrl);
    registry.add("spring.datasource.username", TestPostgres::user);
    registry.add("spring.datasource.password", TestPostgres::password);
  }
}
