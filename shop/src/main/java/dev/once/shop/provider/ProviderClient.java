package dev.once.shop.provider;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider's HTTP API: charges and refunds, each sent with an {@code Idempotency-Key} that the
 * caller derives from its own stable id, so that however often a request is sent again (after a
 * time-out, a lost answer, a crash before the outcome was recorded), the provider applies it once
 * (G3). Connect and read time-outs bound every call. Never called inside a database transaction.
 * Thread-safe.
 *
 * <p>Each call is an observation named {@value #CALLS} (tags {@code operation} = {@code charge} or
 * {@code refund}, and {@code outcome}, the kind of answer): with a tracer, a CLIENT span, child of
 * the span current on the calling thread (the relay's delivery span), whose W3C {@code traceparent}
 * (and {@code tracestate}) the request carries to the provider; with a meter registry, a timer of
 * the same name. Neither carries the key, the amount or the body.
 */
public final class ProviderClient {
  /** Name of the observation (span and timer) of each call to the provider. */
  public static final String CALLS = "shop.provider.calls";

  private final HttpClient http;
  private final URI charges;
  private final URI refunds;
  private final Duration readTimeout;
  private final JsonMapper json;
  private final ObservationRegistry observations;

  /**
   * A client that sends its requests through {@code http}, a client made by {@link
   * #http(Duration)}, and observes none.
   */
  ProviderClient(HttpClient http, URI baseUri, Duration readTimeout, JsonMapper json) {
    this(http, baseUri, readTimeout, json, ObservationRegistry.NOOP);
  }

  /** A client whose calls are observed in {@code observations}. */
  ProviderClient(
      HttpClient http,
      URI baseUri,
      Duration readTimeout,
      JsonMapper json,
      ObservationRegistry observations) {
    this.http = http;
    this.observations = observations;
    String base = baseUri.toString().replaceAll("/+$", "");
    this.charges = URI.create(base + "/v1/charges");
    this.refunds = URI.create(base + "/v1/refunds");
    this.readTimeout = readTimeout;
    this.json = json;
  }

  /** The HTTP client for the provider: HTTP/1.1, no redirects, {@code connectTimeout}. */
  static HttpClient http(Duration connectTimeout) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** Charges {@code amount} for the payment {@code reference}. */
  ProviderAnswer charge(String key, String reference, String amount, String currency) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("reference", reference);
    body.put("amount", amount);
    body.put("currency", currency);
    return post("charge", charges, key, body);
  }

  /** Refunds {@code amount} of the charge made for the payment {@code chargeReference}. */
  ProviderAnswer refund(
      String key, String reference, String chargeReference, String amount, String currency) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("reference", reference);
    body.put("charge", chargeReference);
    body.put("amount", amount);
    body.put("currency", currency);
    return post("refund", refunds, key, body);
  }

  private ProviderAnswer post(String operation, URI uri, String key, Map<String, String> body) {
    // A tracer's propagating handler puts traceparent (and tracestate) here when the call starts;
    // send adds them to the request's headers.
    Map<String, String> trace = new LinkedHashMap<>();
    RequestReplySenderContext<Map<String, String>, ProviderAnswer> call =
        new RequestReplySenderContext<>(Map::put);
    call.setCarrier(trace);
    call.setRemoteServiceName("provider");
    Observation observation =
        Observation.createNotStarted(CALLS, () -> call, observations)
            .contextualName("provider " + operation)
            .lowCardinalityKeyValue("operation", operation);
    return observation.observe(
        () -> {
          ProviderAnswer answer = send(uri, key, json.writeValueAsString(body), trace);
          call.setResponse(answer);
          observation.lowCardinalityKeyValue("outcome", answer.outcome());
          return answer;
        });
  }

  /** One request to the provider, with the headers of {@code trace} besides its own. */
  private ProviderAnswer send(URI uri, String key, String jsonBody, Map<String, String> trace) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .timeout(readTimeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString(jsonBody));
    trace.forEach(request::setHeader);
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      // Time-out, refused or broken connection: the provider may or may not have applied it.
      return new ProviderAnswer.Unavailable(e.getClass().getSimpleName());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ProviderAnswer.Unavailable("interrupted");
    }
    return answer(response.statusCode(), response.body());
  }

  /** The meaning of a provider answer; package-private for its test. */
  ProviderAnswer answer(int status, String body) {
    if (status == 200 || status == 201) {
      try {
        JsonNode node = json.readTree(body);
        String outcome = node.path("status").asString("");
        return switch (outcome) {
          case "succeeded" -> new ProviderAnswer.Succeeded(node.path("id").asString(""));
          case "declined" -> new ProviderAnswer.Declined(node.path("declineCode").asString(""));
          default -> new ProviderAnswer.Unavailable("HTTP " + status + " without a final status");
        };
      } catch (JacksonException e) {
        return new ProviderAnswer.Unavailable("HTTP " + status + " with an unreadable body");
      }
    }
    if (status >= 500 || status == 408 || status == 409 || status == 425 || status == 429) {
      return new ProviderAnswer.Unavailable("HTTP " + status);
    }
    return new ProviderAnswer.Rejected(status, "HTTP " + status + problemType(body));
  }

  /** The problem's type slug, to tell operators why (never the body: it may echo the request). */
  private String problemType(String body) {
    try {
      String type = json.readTree(body).path("type").asString("");
      return type.isEmpty() ? "" : " " + type.substring(type.lastIndexOf('/') + 1);
    } catch (JacksonException e) {
      return "";
    }
  }
}
