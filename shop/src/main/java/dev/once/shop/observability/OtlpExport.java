package dev.once.shop.observability;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Turns Boot's OTLP span exporter on when {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set, by defining its connection details: Boot's exporter
 * is made only with them, so with neither variable set no exporter exists and nothing connects
 * anywhere. Boot's own property {@code management.opentelemetry.tracing.export.otlp.endpoint} (a
 * full URL) still works when neither variable is set. The transport (OTLP/HTTP by default),
 * time-outs and headers are Boot's {@code management.opentelemetry.tracing.export.otlp.*}
 * properties.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(OtlpTracingConnectionDetails.class)
@Conditional(OtlpExport.EndpointSet.class)
class OtlpExport {
  @Bean
  OtlpTracingConnectionDetails otlpTracingConnectionDetails(Environment environment) {
    return OtlpEndpoint.of(environment);
  }

  /** Matches when the environment names an OTLP endpoint (not blank). */
  static final class EndpointSet implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      return OtlpEndpoint.configured(context.getEnvironment());
    }
  }
}
