/**
 * The shop's telemetry wiring that Spring Boot does not do by itself: traces are exported over
 * OTLP/HTTP when, and only when, the OpenTelemetry environment variable {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set. Boot makes
 * the tracer, the W3C propagation, the HTTP server spans and {@code /actuator/prometheus} from
 * {@code application.yml}; Once's starter stores the trace context with each outbox row and
 * continues it when the relay delivers the row. Nothing in the shop depends on this package.
 * docs/observability.md shows a payment's trace and lists every metric.
 */
package dev.once.shop.observability;
