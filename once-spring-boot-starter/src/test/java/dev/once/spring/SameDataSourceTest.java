package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.spring.internal.SameDataSource;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Once accepts a transaction manager only if it manages Once's DataSource: Spring's JDBC ones on
 * that DataSource, and a JpaTransactionManager whose EntityManagerFactory is on it, as Spring Boot
 * sets up JPA. One on another DataSource is refused when the context starts, with a message that
 * says why.
 */
class SameDataSourceTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              OnceAutoConfigurations.with(
                  DataSourceAutoConfiguration.class,
                  HibernateJpaAutoConfiguration.class,
                  DataSourceTransactionManagerAutoConfiguration.class))
          .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
          .withPropertyValues(
              "spring.datasource.url=" + TestDatabase.jdbcUrl(),
              "spring.datasource.username=postgres",
              "spring.datasource.password=postgres",
              "once.outbox.relay.enabled=false");

  private static DataSource another() {
    return new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
  }

  @Test
  void bootsJpaTransactionManagerOnTheApplicationsDataSourceIsAccepted() {
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(PlatformTransactionManager.class))
              .isInstanceOf(JpaTransactionManager.class);
          assertThat(context).hasSingleBean(Inbox.class);
        });
  }

  /**
   * With the relay's own pool (the default once a consumer exists), the application's DataSource
   * bean is wrapped for routing before any other bean sees it: the EntityManagerFactory, and so the
   * JpaTransactionManager, are on the wrapped bean, the one Once uses.
   */
  @Test
  void theRelaysRoutingDataSourceIsTheOneJpaManagesToo() {
    runner
        .withPropertyValues("once.outbox.relay.enabled=true")
        .withBean(InboxConsumer.class, SameDataSourceTest::consumer)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource dataSource = context.getBean(DataSource.class);
              assertThat(dataSource.getClass().getName())
                  .as("the relay's routing DataSource (package-private in dev.once.spring.outbox)")
                  .isEqualTo("dev.once.spring.outbox.RelayRoutingDataSource");
              assertThat(
                      ((JpaTransactionManager) context.getBean(PlatformTransactionManager.class))
                          .getDataSource())
                  .isSameAs(dataSource);
              assertThat(context).hasSingleBean(Inbox.class);
            });
  }

  private static InboxConsumer consumer() {
    Set<String> types = Set.of("same-data-source." + UUID.randomUUID());
    return new InboxConsumer() {
      @Override
      public String name() {
        return "same-data-source";
      }

      @Override
      public Set<String> types() {
        return types;
      }

      @Override
      public void consume(Connection tx, InboxMessage message) {}
    };
  }

  /**
   * The application's own EntityManagerFactory, on a DataSource of its own: Boot's
   * JpaTransactionManager then manages that one, not Once's.
   */
  @Configuration(proxyBeanMethods = false)
  static class JpaOnAnotherDataSource {
    @Bean
    LocalContainerEntityManagerFactoryBean entityManagerFactory() {
      LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
      factory.setDataSource(another());
      factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
      factory.setPackagesToScan("dev.once.spring.no.entities");
      return factory;
    }
  }

  @Test
  void aJpaTransactionManagerOnAnotherDataSourceIsRefused() {
    runner
        .withUserConfiguration(JpaOnAnotherDataSource.class)
        .run(
            context -> {
              assertThat(context).hasFailed();
              assertThat(context.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining(
                      "Once needs the transaction manager to manage the same DataSource as the"
                          + " inbox")
                  .hasMessageContaining(JpaTransactionManager.class.getName());
            });
  }

  @Test
  void theCheckComparesTheDataSourceEachKindOfTransactionManagerManages() {
    DataSource dataSource = another();
    JpaTransactionManager jpa = new JpaTransactionManager();
    assertThat(SameDataSource.manages(jpa, dataSource)).as("JPA without a DataSource").isFalse();
    jpa.setDataSource(dataSource);
    assertThat(SameDataSource.manages(jpa, dataSource)).isTrue();
    assertThat(SameDataSource.manages(jpa, another())).isFalse();
    assertThat(SameDataSource.manages(new JdbcTransactionManager(dataSource), dataSource)).isTrue();
    assertThat(SameDataSource.manages(new JdbcTransactionManager(another()), dataSource)).isFalse();
  }
}
