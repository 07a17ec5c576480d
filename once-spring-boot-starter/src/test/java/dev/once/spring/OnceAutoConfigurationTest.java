package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.idempotency.IdempotencyEngine;
import dev.once.spring.metrics.IdempotencyMetrics;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

/** What the auto-configuration registers, and how properties switch parts off or stop the start. */
class OnceAutoConfigurationTest {
  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class))
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres");

  @Test
  void registersEngineFilterOutboxPurgeAndMigration() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(IdempotencyEngine.class);
          assertThat(context).hasSingleBean(TransactionalOutbox.class);
          // One outbox for users: once-core's connection-level Outbox is internal.
          assertThat(context).doesNotHaveBean(dev.once.outbox.Outbox.class);
          assertThat(context).hasSingleBean(IdempotencyKeyPurger.class);
          assertThat(context).hasSingleBean(OnceSchemaMigration.class);
          assertThat(context).hasSingleBean(FilterRegistrationBean.class);
          assertThat(context.getBean(IdempotencyMetrics.class)).isSameAs(IdempotencyMetrics.NONE);
          // Once's clocks are its own: the application's Clock beans are the application's.
          assertThat(context).doesNotHaveBean(java.time.Clock.class);
        });
  }

  @Test
  void partsCanBeSwitchedOff() {
    runner
        .withPropertyValues(
            "once.idempotency.http.enabled=false",
            "once.idempotency.purge.enabled=false",
            "once.schema.migrate=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(IdempotencyEngine.class);
              assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
              assertThat(context).doesNotHaveBean(IdempotencyKeyPurger.class);
              assertThat(context).doesNotHaveBean(OnceSchemaMigration.class);
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "once.idempotency.http.max-json-depth=0",
        "once.idempotency.http.problem-type-base=https://exa mple.com/",
        "once.idempotency.http.problem-type-base=https://example.com/%zz/"
      })
  void badValueStopsTheStartNamingTheProperty(String property) {
    runner
        .withPropertyValues(property)
        .run(
            context ->
                assertThat(BoundProperties.report(context.getStartupFailure()))
                    .contains(property.substring(0, property.indexOf('=')) + ": must"));
  }

  @Test
  void withoutADataSourceNothingIsRegistered() {
    new WebApplicationContextRunner()
        .withConfiguration(OnceAutoConfigurations.with())
        .run(context -> assertThat(context).doesNotHaveBean(IdempotencyEngine.class));
  }
}
