package dev.once.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.embedded.spring.EmbeddedPostgresSettings;
import dev.once.embedded.spring.EmbeddedPostgresStarter;
import dev.once.test.fixtures.TestPostgres;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * docs/testing.md's example, literally: a {@code @SpringBootTest} of an application with
 * once-embedded-postgres and Boot's Flyway on the class path, pointed at the kit's PostgreSQL by
 * {@link TestPostgresProperties} alone. No embedded server of its own starts (its properties came
 * too late for an environment post-processor, which once logged Flyway in as the embedded owner),
 * and Boot's Flyway runs the application's migration, with {@code ${application_role}}, on the
 * kit's database. Had it started, its data would be under {@code target/}.
 */
@SpringBootTest(
    classes = BootFlywayOnTestPostgresTest.FlywayApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {
      // Off for the module's other test applications (application.properties). The application's
      // migration, in a schema of its own: the kit's database is shared by every context of the
      // test JVM.
      "spring.flyway.enabled=true",
      "spring.flyway.locations=classpath:dev/once/test/spring/flyway",
      "spring.flyway.schemas=boot_flyway_test"
    })
@Timeout(120)
class BootFlywayOnTestPostgresTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    TestPostgresProperties.registerDataSource(registry);
  }

  @Autowired JdbcTemplate jdbc;
  @Autowired ApplicationContext context;

  @Test
  void migratesTheTestDatabaseAndStartsNoServerOfItsOwn() {
    assertThat(jdbc.queryForObject("SELECT current_user", String.class))
        .isEqualTo(TestPostgres.user());
    assertThat(
            jdbc.queryForObject(
                "SELECT granted_to FROM boot_flyway_test.wallet WHERE id = 1", String.class))
        .isEqualTo(TestPostgres.user());
    assertThat(jdbc.queryForObject("SELECT to_regclass('once.outbox') IS NOT NULL", Boolean.class))
        .as("the starter migrated Once's schema there too")
        .isTrue();
    assertThat(context.getBeansOfType(EmbeddedPostgresStarter.class))
        .as("the embedded default saw the test's URL")
        .isEmpty();
    assertThat(Path.of("target", "embedded-postgres")).doesNotExist();
    // Where it would keep its data in a @SpringBootTest: under target/, not the project's data/.
    assertThat(EmbeddedPostgresSettings.of(context.getEnvironment()).dataDirectory())
        .isEqualTo(Path.of("target", "embedded-postgres").toAbsolutePath());
  }

  /** Nothing but auto-configuration: Boot's DataSource and Flyway, Once, the embedded default. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class FlywayApplication {}
}
