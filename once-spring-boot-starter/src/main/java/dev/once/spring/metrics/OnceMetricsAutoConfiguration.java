package dev.once.spring.metrics;

import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.inbox.InboxDuplicates;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the outcome counters in Micrometer, when it is present: on the
 * application's registry, or none without one. Ordered before the web auto-configuration ({@code
 * OnceWebAutoConfiguration}), whose "no metrics" {@link IdempotencyMetrics} steps aside for this
 * one's.
 */
@AutoConfiguration(after = OnceAutoConfiguration.class)
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
@ConditionalOnBean({DataSource.class, OnceProperties.class})
public final class OnceMetricsAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  IdempotencyMetrics onceIdempotencyMetrics(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry meters = registry.getIfAvailable();
    return meters == null ? IdempotencyMetrics.NONE : new MicrometerIdempotencyMetrics(meters);
  }

  @Bean
  @ConditionalOnMissingBean
  InboxDuplicates onceInboxDuplicates(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry meters = registry.getIfAvailable();
    return meters == null ? InboxDuplicates.NONE : new MicrometerInboxDuplicates(meters);
  }
}
