package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.actuate.OnceActuateAutoConfiguration;
import dev.once.spring.events.OnceEventsAutoConfiguration;
import dev.once.spring.events.TypedEventsApplication;
import dev.once.spring.inbox.OnceInboxAutoConfiguration;
import dev.once.spring.metrics.OnceMetricsAutoConfiguration;
import dev.once.spring.metrics.OnceRelayMetricsAutoConfiguration;
import dev.once.spring.outbox.OnceOutboxAutoConfiguration;
import dev.once.spring.outbox.OnceRelayAutoConfiguration;
import dev.once.spring.outbox.OutboxHandler;
import dev.once.spring.tracing.OnceTracingAutoConfiguration;
import dev.once.spring.web.OnceWebAutoConfiguration;
import dev.once.testing.PackageCycles;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.StringUtils;

/**
 * The starter's wiring (issue 41, item 2): one auto-configuration per capability, each listed in
 * the imports file and ordered after everything its conditions read, and the beans an application
 * gets from them, the same as when one auto-configuration imported the others in a fixed order.
 */
class AutoConfigurationWiringTest {
  /**
   * An order a condition relies on: {@code first}'s beans decide a condition of {@code then}'s (an
   * {@code @ConditionalOnBean} or {@code @ConditionalOnMissingBean} only sees the beans of the
   * auto-configurations before it).
   */
  private record Order(Class<?> first, Class<?> then, String why) {}

  private static final List<Order> ORDERS =
      List.of(
          new Order(
              DataSourceAutoConfiguration.class,
              OnceAutoConfiguration.class,
              "@ConditionalOnBean(DataSource.class)"),
          new Order(
              DataSourceTransactionManagerAutoConfiguration.class,
              OnceAutoConfiguration.class,
              "the same-DataSource check is on a transaction manager"),
          new Order(
              HibernateJpaAutoConfiguration.class,
              OnceAutoConfiguration.class,
              "the same-DataSource check is on JPA's transaction manager too"),
          new Order(
              HibernateJpaAutoConfiguration.class,
              OnceInboxAutoConfiguration.class,
              "the inbox needs a transaction manager, JPA's too"),
          new Order(
              HibernateJpaAutoConfiguration.class,
              OnceWebAutoConfiguration.class,
              "the filter needs a transaction manager, JPA's too"),
          new Order(
              MicrometerTracingAutoConfiguration.class,
              OnceTracingAutoConfiguration.class,
              "Boot's Tracer and Propagator"),
          new Order(
              OpenTelemetryTracingAutoConfiguration.class,
              OnceTracingAutoConfiguration.class,
              "Boot's Tracer and Propagator"),
          new Order(
              NoopTracerAutoConfiguration.class,
              OnceTracingAutoConfiguration.class,
              "Boot's no-op Tracer"),
          new Order(
              OnceEventsAutoConfiguration.class,
              OnceInboxAutoConfiguration.class,
              "the listeners' consumers decide the in-process transport"),
          new Order(
              OnceEventsAutoConfiguration.class,
              OnceRelayAutoConfiguration.class,
              "the listeners' consumers decide the relay"),
          new Order(
              OnceRelayAutoConfiguration.class,
              OnceRelayMetricsAutoConfiguration.class,
              "the relay's metrics are there if its bean onceOutboxRelay is"),
          new Order(
              OnceMetricsAutoConfiguration.class,
              OnceWebAutoConfiguration.class,
              "the filter's no-metrics steps aside for Micrometer's"),
          new Order(
              OnceOutboxAutoConfiguration.class,
              OnceActuateAutoConfiguration.class,
              "the endpoint is there if the outbox's admin is"));

  private static final String[] DATABASE = {
    "spring.datasource.url=" + TestDatabase.jdbcUrl(),
    "spring.datasource.username=postgres",
    "spring.datasource.password=postgres",
    "once.outbox.relay.auto-start=false"
  };

  private static OutboxHandler handler() {
    return new OutboxHandler() {
      @Override
      public String type() {
        return "wiring.charge";
      }

      @Override
      public Delivery handle(OutboxRecord row) {
        return Delivery.done();
      }
    };
  }

  /** Once's beans: their names all start with {@code once}. */
  private static List<String> onceBeans(ApplicationContext context) {
    return Arrays.stream(context.getBeanDefinitionNames())
        .filter(name -> name.startsWith("once"))
        .sorted()
        .toList();
  }

  @Test
  void theImportsFileListsEveryAutoConfigurationOfTheStarter() {
    List<String> listed =
        ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
            .getCandidates()
            .stream()
            .filter(name -> name.startsWith("dev.once.spring."))
            .toList();
    List<String> annotated =
        StreamSupport.stream(
                PackageCycles.mainClassesOf(OnceAutoConfiguration.class).spliterator(), false)
            .filter(type -> type.isAnnotatedWith(AutoConfiguration.class))
            .map(JavaClass::getName)
            .sorted()
            .toList();

    assertThat(listed).containsExactlyElementsOf(names(OnceAutoConfigurations.ALL));
    assertThat(annotated).containsExactlyElementsOf(listed);
    assertThat(OnceAutoConfigurations.ALL)
        .allSatisfy(
            type -> {
              assertThat(Modifier.isPublic(type.getModifiers())).as("public").isTrue();
              assertThat(Modifier.isFinal(type.getModifiers())).as("final").isTrue();
            });
  }

  /**
   * Declared, not by chance: Spring Boot sorts auto-configurations by name before it applies their
   * {@code after} and {@code before}, so an order the names happen to give would hide a missing
   * declaration. Read from the metadata Boot's sorter reads ({@code
   * spring-autoconfigure-metadata.properties}, written from the annotations at build time).
   */
  @Test
  void everyAutoConfigurationOfOncesIsDeclaredAfterTheCoreOne() throws IOException {
    Properties metadata = metadata();
    assertThat(OnceAutoConfigurations.ALL.subList(1, OnceAutoConfigurations.ALL.size()))
        .allSatisfy(
            type ->
                assertThat(declaredBefore(metadata, OnceAutoConfiguration.class.getName()))
                    .contains(type.getName()));
  }

  @Test
  void eachIsDeclaredAfterTheAutoConfigurationsItsConditionsRead() throws IOException {
    Properties metadata = metadata();
    assertThat(ORDERS)
        .allSatisfy(
            order ->
                assertThat(declaredBefore(metadata, order.first().getName()))
                    .as(
                        "%s declared before %s (%s)",
                        order.first().getSimpleName(), order.then().getSimpleName(), order.why())
                    .contains(order.then().getName()));
  }

  /** And so Spring Boot sorts them. */
  @Test
  void eachComesAfterTheAutoConfigurationsItsConditionsRead() {
    List<Class<?>> all = new ArrayList<>(OnceAutoConfigurations.ALL);
    ORDERS.forEach(
        order -> {
          if (!all.contains(order.first())) {
            all.add(order.first());
          }
        });
    List<Class<?>> sorted = sorted(all);
    assertThat(ORDERS)
        .allSatisfy(
            order ->
                assertThat(sorted.indexOf(order.first()))
                    .as(
                        "%s before %s (%s)",
                        order.first().getSimpleName(), order.then().getSimpleName(), order.why())
                    .isLessThan(sorted.indexOf(order.then())));
  }

  private static List<Class<?>> sorted(List<Class<?>> classes) {
    return List.of(
        Configurations.getClasses(AutoConfigurations.of(classes.toArray(Class<?>[]::new))));
  }

  /** Every auto-configuration's metadata on the classpath: Boot's and Once's. */
  private static Properties metadata() throws IOException {
    return PropertiesLoaderUtils.loadAllProperties(
        "META-INF/spring-autoconfigure-metadata.properties");
  }

  /**
   * The auto-configurations declared, directly or through others, to come after {@code first}: each
   * that names it (or one of those) in its {@code after}, and each it names (or one of those names)
   * in its {@code before}.
   */
  private static Set<String> declaredBefore(Properties metadata, String first) {
    Map<String, Set<String>> next = new HashMap<>();
    for (String key : metadata.stringPropertyNames()) {
      int dot = key.lastIndexOf('.');
      String type = key.substring(0, dot);
      for (String other : StringUtils.commaDelimitedListToSet(metadata.getProperty(key))) {
        switch (key.substring(dot + 1)) {
          case "AutoConfigureAfter" ->
              next.computeIfAbsent(other.trim(), k -> new HashSet<>()).add(type);
          case "AutoConfigureBefore" ->
              next.computeIfAbsent(type, k -> new HashSet<>()).add(other.trim());
          default -> {}
        }
      }
    }
    Set<String> after = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(first));
    while (!todo.isEmpty()) {
      for (String then : next.getOrDefault(todo.pop(), Set.of())) {
        if (after.add(then)) {
          todo.push(then);
        }
      }
    }
    return after;
  }

  private static List<String> names(List<Class<?>> classes) {
    return classes.stream().map(Class::getName).toList();
  }

  @Test
  void aServletApplicationWithEverythingGetsEveryBean() {
    new WebApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Tracer.class, () -> Tracer.NOOP)
        .withBean(Propagator.class, () -> Propagator.NOOP)
        .withBean("chargeHandler", OutboxHandler.class, AutoConfigurationWiringTest::handler)
        .withPropertyValues(DATABASE)
        .withPropertyValues("once.outbox.events=wiring.happened")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context))
                  .containsExactly(
                      "once-dev.once.spring.OnceProperties",
                      "onceApplicationRolePlaceholder",
                      "onceClientCaps",
                      "onceEndpoint",
                      "onceEventCodec",
                      "onceEvents",
                      "onceFailoverEviction",
                      "onceIdempotencyClientResolver",
                      "onceIdempotencyEngine",
                      "onceIdempotencyFilter",
                      "onceIdempotencyKeyPurger",
                      "onceIdempotencyMetrics",
                      "onceIdempotencySameDataSource",
                      "onceIdempotencyStore",
                      "onceIdempotentHandlers",
                      "onceInProcessEventTransport",
                      "onceInbox",
                      "onceInboxDuplicates",
                      "onceInboxPurger",
                      "onceInboxStore",
                      "onceKeyedHttpRequests",
                      "onceOutboxAdmin",
                      "onceOutboxGauges",
                      "onceOutboxLoadShedding",
                      "onceOutboxOverloadedAnswer",
                      "onceOutboxRelay",
                      "onceOutboxRelayLifecycle",
                      "onceOutboxStore",
                      "oncePublishedEventTypes",
                      "onceRelayDataSourceRouting",
                      "onceRelayHealthIndicator",
                      "onceRelayListener",
                      "onceRelayMeters",
                      "onceRelayPool",
                      "onceRelayWakeUp",
                      "onceSchemaMigration",
                      "onceThreads",
                      "onceTracing",
                      "onceTransactionalOutbox",
                      "onceUnregisteredListeners");
            });
  }

  /**
   * An application that excludes the core auto-configuration (as it used to turn Once off) starts
   * without any of Once's beans: every capability is conditional on the core's properties bean,
   * instead of failing on the missing {@link OnceProperties}.
   */
  @Test
  void excludingTheCoreTurnsEveryCapabilityOff() {
    List<Class<?>> withoutCore = new ArrayList<>(OnceAutoConfigurations.ALL);
    withoutCore.remove(OnceAutoConfiguration.class);
    withoutCore.add(DataSourceAutoConfiguration.class);
    withoutCore.add(DataSourceTransactionManagerAutoConfiguration.class);
    withoutCore.add(TransactionAutoConfiguration.class);
    new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(withoutCore.toArray(Class<?>[]::new)))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Tracer.class, () -> Tracer.NOOP)
        .withBean(Propagator.class, () -> Propagator.NOOP)
        .withBean("chargeHandler", OutboxHandler.class, AutoConfigurationWiringTest::handler)
        .withPropertyValues(DATABASE)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context)).isEmpty();
            });
  }

  @Test
  void anApplicationWithoutTransactionManagerGetsNoInboxAndNoFilter() {
    new ApplicationContextRunner()
        .withConfiguration(OnceAutoConfigurations.with(DataSourceAutoConfiguration.class))
        .withBean("chargeHandler", OutboxHandler.class, AutoConfigurationWiringTest::handler)
        .withPropertyValues(DATABASE)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context))
                  .containsExactly(
                      "once-dev.once.spring.OnceProperties",
                      "onceApplicationRolePlaceholder",
                      "onceEndpoint",
                      "onceEventCodec",
                      "onceEvents",
                      "onceFailoverEviction",
                      "onceIdempotencyEngine",
                      "onceIdempotencyKeyPurger",
                      "onceIdempotencyMetrics",
                      "onceIdempotencyStore",
                      "onceInboxDuplicates",
                      "onceOutboxAdmin",
                      "onceOutboxGauges",
                      "onceOutboxLoadShedding",
                      "onceOutboxRelay",
                      "onceOutboxRelayLifecycle",
                      "onceOutboxStore",
                      "oncePublishedEventTypes",
                      "onceRelayDataSourceRouting",
                      "onceRelayHealthIndicator",
                      "onceRelayListener",
                      "onceRelayMeters",
                      "onceRelayPool",
                      "onceRelayWakeUp",
                      "onceSchemaMigration",
                      "onceThreads",
                      "onceTransactionalOutbox",
                      "onceUnregisteredListeners");
            });
  }

  @Test
  void aServletApplicationWithNothingToRelayGetsNoRelay() {
    new WebApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class))
        .withPropertyValues(DATABASE)
        .withPropertyValues("once.idempotency.http.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context))
                  .containsExactly(
                      "once-dev.once.spring.OnceProperties",
                      "onceApplicationRolePlaceholder",
                      "onceEndpoint",
                      "onceEventCodec",
                      "onceEvents",
                      "onceFailoverEviction",
                      "onceIdempotencyEngine",
                      "onceIdempotencyKeyPurger",
                      "onceIdempotencyMetrics",
                      "onceIdempotencyStore",
                      "onceInbox",
                      "onceInboxDuplicates",
                      "onceInboxPurger",
                      "onceInboxStore",
                      "onceOutboxAdmin",
                      "onceOutboxLoadShedding",
                      "onceOutboxOverloadedAnswer",
                      "onceOutboxStore",
                      "oncePublishedEventTypes",
                      "onceRelayWakeUp",
                      "onceSchemaMigration",
                      "onceThreads",
                      "onceTransactionalOutbox",
                      "onceUnregisteredListeners");
            });
  }

  /**
   * The listener methods alone make the consumer that the inbox's transport and the relay are there
   * for: the events' auto-configuration comes before theirs.
   */
  @Test
  void typedListenersAloneGetTheTransportAndTheRelay() {
    new ApplicationContextRunner()
        .withConfiguration(
            OnceAutoConfigurations.with(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class))
        .withUserConfiguration(TypedEventsApplication.class)
        .withPropertyValues(DATABASE)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context))
                  .containsExactly(
                      "once-dev.once.spring.OnceProperties",
                      "onceApplicationRolePlaceholder",
                      "onceEndpoint",
                      "onceEventCodec",
                      "onceEvents",
                      "onceFailoverEviction",
                      "onceIdempotencyEngine",
                      "onceIdempotencyKeyPurger",
                      "onceIdempotencyMetrics",
                      "onceIdempotencyStore",
                      "onceInProcessEventTransport",
                      "onceInbox",
                      "onceInboxDuplicates",
                      "onceInboxPurger",
                      "onceInboxStore",
                      "onceListener:typed-stock",
                      "onceOutboxAdmin",
                      "onceOutboxGauges",
                      "onceOutboxLoadShedding",
                      "onceOutboxRelay",
                      "onceOutboxRelayLifecycle",
                      "onceOutboxStore",
                      "oncePublishedEventTypes",
                      "onceRelayDataSourceRouting",
                      "onceRelayHealthIndicator",
                      "onceRelayListener",
                      "onceRelayMeters",
                      "onceRelayPool",
                      "onceRelayWakeUp",
                      "onceSchemaMigration",
                      "onceThreads",
                      "onceTransactionalOutbox",
                      "onceUnregisteredListeners");
            });
  }

  @Test
  void withoutADataSourceOnceRegistersNothing() {
    new WebApplicationContextRunner()
        .withConfiguration(OnceAutoConfigurations.with())
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(Tracer.class, () -> Tracer.NOOP)
        .withBean(Propagator.class, () -> Propagator.NOOP)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(onceBeans(context)).isEmpty();
            });
  }
}
