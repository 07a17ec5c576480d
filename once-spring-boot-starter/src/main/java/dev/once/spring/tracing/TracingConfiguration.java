package dev.once.spring.tracing;

import dev.once.spring.internal.OnceTracing;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The trace context through the outbox on Micrometer Tracing, when it is on the classpath and the
 * application has a {@link Tracer} and a {@link Propagator} bean (Spring Boot's tracing
 * auto-configuration makes both, and {@code OnceAutoConfiguration} runs after it). Boot's no-op
 * tracer, there when no bridge is, comes without a Propagator, so this does not apply; a {@link
 * Tracer#NOOP} with a Propagator gives {@link OnceTracing#NONE}. Imported by name by {@code
 * OnceAutoConfiguration}; not annotated {@code @Configuration}, so that a component scan of this
 * package does not take it up as the application's own configuration.
 */
@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
@ConditionalOnBean(
    type = {"io.micrometer.tracing.Tracer", "io.micrometer.tracing.propagation.Propagator"})
class TracingConfiguration {
  @Bean
  @ConditionalOnMissingBean
  OnceTracing onceTracing(Tracer tracer, Propagator propagator) {
    return tracer == Tracer.NOOP ? OnceTracing.NONE : new MicrometerTracing(tracer, propagator);
  }
}
