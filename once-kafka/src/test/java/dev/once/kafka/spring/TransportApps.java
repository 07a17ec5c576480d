package dev.once.kafka.spring;

import dev.once.kafka.TestBroker;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.actuate.OnceActuateAutoConfiguration;
import dev.once.spring.events.OnceEventsAutoConfiguration;
import dev.once.spring.inbox.OnceInboxAutoConfiguration;
import dev.once.spring.metrics.OnceMetricsAutoConfiguration;
import dev.once.spring.metrics.OnceRelayMetricsAutoConfiguration;
import dev.once.spring.outbox.OnceOutboxAutoConfiguration;
import dev.once.spring.outbox.OnceRelayAutoConfiguration;
import dev.once.spring.tracing.OnceTracingAutoConfiguration;
import dev.once.spring.web.OnceWebAutoConfiguration;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The test application of {@link KafkaTestApplication} as a context the test starts and closes
 * itself (several at once, one stopped mid-stream), on a broker of the test's choosing, with a
 * {@link SimpleMeterRegistry} so the transport's counters can be read. Also what the child JVM of
 * {@link ChildConsumer} runs.
 */
final class TransportApps {
  private TransportApps() {}

  /**
   * The auto-configurations of {@code KafkaTransportTest}, and the test application. An annotation
   * cannot take {@link OnceAutoConfigurations#ALL}: Once's are listed by hand, and {@code
   * KafkaWiringTest} holds the list to it.
   */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    DataSourceAutoConfiguration.class,
    DataSourceTransactionManagerAutoConfiguration.class,
    TransactionAutoConfiguration.class,
    KafkaAutoConfiguration.class,
    OnceKafkaAutoConfiguration.class,
    OnceAutoConfiguration.class,
    OnceActuateAutoConfiguration.class,
    OnceEventsAutoConfiguration.class,
    OnceInboxAutoConfiguration.class,
    OnceMetricsAutoConfiguration.class,
    OnceRelayMetricsAutoConfiguration.class,
    OnceOutboxAutoConfiguration.class,
    OnceRelayAutoConfiguration.class,
    OnceTracingAutoConfiguration.class,
    OnceWebAutoConfiguration.class
  })
  @Import(KafkaTestApplication.class)
  static class App {
    @Bean
    SimpleMeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  /**
   * The properties of run {@code run} against {@code servers} and {@code jdbcUrl}: short polls and
   * backoffs, so that a test takes seconds.
   */
  static List<String> properties(String run, String servers, String jdbcUrl) {
    return new ArrayList<>(
        List.of(
            "spring.datasource.url=" + jdbcUrl,
            "spring.datasource.username=postgres",
            "spring.datasource.password=postgres",
            "spring.kafka.bootstrap-servers=" + servers,
            "test.run=" + run,
            "once.kafka.topic.partitions=3",
            "once.kafka.consumer.initial-delay=10ms",
            "once.kafka.consumer.max-delay=100ms",
            "once.outbox.relay.poll-interval=100ms"));
  }

  /**
   * The properties of run {@code run} for records a test writes itself onto ONE partition read by
   * one listener thread (a hot partition), the relay off, with {@code more} after them.
   */
  static List<String> onePartition(String run, String... more) {
    List<String> properties = properties(run, TestBroker.servers(), TestDatabase.jdbcUrl());
    properties.addAll(
        List.of(
            "once.kafka.topic.partitions=1",
            "once.kafka.consumer.concurrency=1",
            "once.outbox.relay.enabled=false"));
    properties.addAll(List.of(more));
    return properties;
  }

  /**
   * For a test that stops the broker: a send ends within 2 s as a retry of the publisher's own,
   * well inside the relay's handler time-out; the relay retries soon and never gives a row up.
   */
  static List<String> brokerOutage() {
    return List.of(
        "once.kafka.producer.send-timeout=2s",
        "once.outbox.relay.handler-timeout=10s",
        "once.outbox.relay.retry.max-attempts=1000",
        "once.outbox.relay.retry.initial-delay=50ms",
        "once.outbox.relay.retry.max-delay=300ms",
        "once.outbox.relay.retry.jitter=0");
  }

  /**
   * Starts the application with {@code properties} (later ones win) and the beans of {@code extra}
   * configuration classes.
   */
  static ConfigurableApplicationContext start(List<String> properties, Class<?>... extra) {
    Class<?>[] sources = new Class<?>[extra.length + 1];
    sources[0] = App.class;
    System.arraycopy(extra, 0, sources, 1, extra.length);
    return new SpringApplicationBuilder(sources)
        .web(WebApplicationType.NONE)
        .bannerMode(Banner.Mode.OFF)
        .registerShutdownHook(false)
        // As command-line arguments, which win over system properties: an embedded broker sets
        // spring.kafka.bootstrap-servers as one.
        .run(arguments(properties));
  }

  /** {@code key=value} properties as arguments, a key given twice taking its last value. */
  private static String[] arguments(List<String> properties) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String property : properties) {
      int equals = property.indexOf('=');
      values.put(property.substring(0, equals), property.substring(equals + 1));
    }
    return values.entrySet().stream()
        .map(entry -> "--" + entry.getKey() + "=" + entry.getValue())
        .toArray(String[]::new);
  }

  /** The {@code once.kafka.consumer.records} counter of {@code consumer} with {@code outcome}. */
  static double records(ConfigurableApplicationContext context, String consumer, String outcome) {
    return counter(context.getBean(MeterRegistry.class), consumer, outcome);
  }

  static double counter(MeterRegistry registry, String consumer, String outcome) {
    var counter =
        Search.in(registry)
            .name("once.kafka.consumer.records")
            .tag("consumer", consumer)
            .tag("outcome", outcome)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /** How many publications of {@code type} failed (and were answered with a retry). */
  static long failedPublications(ConfigurableApplicationContext context, String type) {
    var timer =
        Search.in(context.getBean(MeterRegistry.class))
            .name("once.kafka.publish")
            .tag("type", type)
            .tag("outcome", "failed")
            .timer();
    return timer == null ? 0 : timer.count();
  }
}
