package dev.once.spring.tracing;

import dev.once.spring.OnceAutoConfiguration;
import dev.once.spring.OnceProperties;
import dev.once.spring.internal.OnceTracing;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the trace context through the outbox on Micrometer Tracing, when it is on
 * the classpath and the application has a {@link Tracer} and a {@link Propagator} bean (Spring
 * Boot's tracing auto-configuration makes both; this one runs after it). Boot's no-op tracer, there
 * when no bridge is, comes without a Propagator, so this does not apply; a {@link Tracer#NOOP} with
 * a Propagator gives {@link OnceTracing#NONE}. The outbox, the inbox and the relay take the {@link
 * OnceTracing} bean when there is one, whatever their order.
 */
@AutoConfiguration(
    after = OnceAutoConfiguration.class,
    // Their Tracer and Propagator beans decide this auto-configuration's condition.
    afterName = {
      "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure"
          + ".OpenTelemetryTracingAutoConfiguration",
      "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration"
    })
@ConditionalOnClass(name = "io.micrometer.tracing.Tracer")
@ConditionalOnBean(
    value = {DataSource.class, OnceProperties.class},
    type = {"io.micrometer.tracing.Tracer", "io.micrometer.tracing.propagation.Propagator"})
public final class OnceTracingAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  OnceTracing onceTracing(Tracer tracer, Propagator propagator) {
    return tracer == Tracer.NOOP ? OnceTracing.NONE : new MicrometerTracing(tracer, propagator);
  }
}
