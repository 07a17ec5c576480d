package dev.once.spring.metrics;

import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.RelayListener;
import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.internal.OnceThreads;
import dev.once.spring.outbox.OnceRelayAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the relay's counters and timer, and the outbox gauges, in Micrometer: when
 * Micrometer is present and the relay runs (its bean {@code onceOutboxRelay} is defined: this is
 * ordered after {@link OnceRelayAutoConfiguration}).
 */
@AutoConfiguration(after = {OnceAutoConfiguration.class, OnceRelayAutoConfiguration.class})
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnBean(
    value = {DataSource.class, OnceProperties.class},
    name = "onceOutboxRelay")
public final class OnceRelayMetricsAutoConfiguration {
  /** How often the gauges re-read the outbox's stats. */
  static final Duration STATS_INTERVAL = Duration.ofSeconds(5);

  @Bean
  @ConditionalOnMissingBean
  RelayListener onceRelayListener(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry meters = registry.getIfAvailable();
    return meters == null ? RelayListener.NONE : new MicrometerRelayListener(meters);
  }

  @Bean
  RelayMeters onceRelayMeters(OutboxRelay relay, ObjectProvider<MeterRegistry> registry) {
    return new RelayMeters(relay, registry.getIfAvailable());
  }

  @Bean
  OutboxGauges onceOutboxGauges(
      ObjectProvider<OutboxAdmin> admin,
      ObjectProvider<MeterRegistry> registry,
      OnceThreads threads) {
    MeterRegistry meters = registry.getIfAvailable();
    return meters == null
        ? OutboxGauges.none()
        : new OutboxGauges(admin.getObject(), meters, STATS_INTERVAL, threads);
  }
}
