package dev.once.spring.metrics;

import dev.once.spring.inbox.InboxDuplicates;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Outcome counters in Micrometer, when it is present and the application has a registry. Imported
 * by name by {@code OnceAutoConfiguration}; not annotated {@code @Configuration}, so that a
 * component scan of this package does not take it up as the application's own configuration.
 */
@ConditionalOnClass(name = "io.micrometer.core.instrument.MeterRegistry")
class MetricsConfiguration {
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
