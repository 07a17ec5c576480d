package dev.once.shop.observability;

import java.net.URI;
import java.net.URISyntaxException;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingConnectionDetails;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.Transport;
import org.springframework.core.env.Environment;

/**
 * Where spans go, from the OpenTelemetry SDK's own environment variables: {@value #TRACES}, used as
 * it is, else {@value #BASE} with {@code /v1/traces} appended for OTLP/HTTP (as the specification
 * says; for gRPC the base as it is). Validated when made: an http or https URL with a host, or the
 * message names the variable and the bad value. Immutable.
 */
record OtlpEndpoint(String base, String traces) implements OtlpTracingConnectionDetails {
  /** The collector's base URL for every signal. */
  static final String BASE = "OTEL_EXPORTER_OTLP_ENDPOINT";

  /** The URL of the traces alone, used as it is. */
  static final String TRACES = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";

  OtlpEndpoint {
    check(BASE, base);
    check(TRACES, traces);
    if (base == null && traces == null) {
      throw new IllegalArgumentException("Neither " + BASE + " nor " + TRACES + " is set.");
    }
  }

  /** Whether {@code environment} names an endpoint, so that spans are to be exported. */
  static boolean configured(Environment environment) {
    return text(environment.getProperty(BASE)) != null
        || text(environment.getProperty(TRACES)) != null;
  }

  /** The endpoint {@code environment} names; see {@link #configured}. */
  static OtlpEndpoint of(Environment environment) {
    return new OtlpEndpoint(
        text(environment.getProperty(BASE)), text(environment.getProperty(TRACES)));
  }

  @Override
  public String getUrl(Transport transport) {
    if (traces != null) {
      return traces;
    }
    String trimmed = base.replaceAll("/+$", "");
    return transport == Transport.HTTP ? trimmed + "/v1/traces" : trimmed;
  }

  private static String text(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  private static void check(String name, String value) {
    if (value == null) {
      return;
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      uri = null;
    }
    if (uri == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "Invalid configuration: "
              + name
              + " must be an http or https URL with a host, but was '"
              + value
              + "'.");
    }
  }
}
