package dev.once.shop.provider;

import dev.once.client.CallInterruptedException;
import dev.once.client.CallRetryPolicy;
import dev.once.client.GaveUpException;
import dev.once.client.IdempotencyKeyReusedException;
import dev.once.client.OnceClient;
import dev.once.client.OnceRequest;
import dev.once.client.OnceResponse;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider's HTTP API: charges and refunds, each sent through once-client with an {@code
 * Idempotency-Key} that the caller derives from its own stable id, so that however often a request
 * is sent again (by once-client within one call, after a time-out, a lost answer or a 5xx; by the
 * relay in a later attempt; after a crash before the outcome was recorded), the provider applies it
 * once (G3). Each attempt is bounded by the read time-out, the whole call by {@code
 * shop.provider.deadline}, well inside the relay's handler time-out; still no answer then is {@link
 * ProviderAnswer.Unavailable}, and the relay tries again later under the same key. Never called
 * inside a database transaction. Thread-safe.
 *
 * <p>Each call is an observation named {@value #CALLS} (tags {@code operation} = {@code charge} or
 * {@code refund}, and {@code outcome}, the kind of answer): with a tracer, a CLIENT span, child of
 * the span current on the calling thread (the relay's delivery span), whose W3C {@code traceparent}
 * (and {@code tracestate}) every attempt of the call carries to the provider; with a meter
 * registry, a timer of the same name. Neither carries the key, the amount or the body.
 */
public final class ProviderClient {
  /** Name of the observation (span and timer) of each call to the provider. */
  public static final String CALLS = "shop.provider.calls";

  private final OnceClient client;
  private final URI charges;
  private final URI refunds;
  private final JsonMapper json;
  private final ObservationRegistry observations;

  /**
   * A client that sends its requests through {@code client}, made by {@link #client}, and observes
   * none.
   */
  ProviderClient(OnceClient client, URI baseUri, JsonMapper json) {
    this(client, baseUri, json, ObservationRegistry.NOOP);
  }

  /** A client whose calls are observed in {@code observations}. */
  ProviderClient(
      OnceClient client, URI baseUri, JsonMapper json, ObservationRegistry observations) {
    this.client = client;
    this.observations = observations;
    String base = baseUri.toString().replaceAll("/+$", "");
    this.charges = URI.create(base + "/v1/charges");
    this.refunds = URI.create(base + "/v1/refunds");
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

  /**
   * The once-client of the provider calls, on {@code http}: each attempt at most {@code
   * readTimeout}, the call at most {@code deadline}, as many attempts as fit, backoff from 100 ms
   * doubling to 2 s (or the provider's {@code Retry-After}).
   */
  static OnceClient client(HttpClient http, Duration readTimeout, Duration deadline) {
    return OnceClient.builder(http)
        .retry(
            CallRetryPolicy.builder()
                .attemptTimeout(readTimeout)
                .deadline(deadline)
                .maxAttempts(Integer.MAX_VALUE)
                .initialDelay(Duration.ofMillis(100))
                .maxDelay(Duration.ofSeconds(2))
                .build())
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
    // request adds them to the headers of every attempt.
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
          ProviderAnswer answer = send(request(uri, key, json.writeValueAsString(body), trace));
          call.setResponse(answer);
          observation.lowCardinalityKeyValue("outcome", answer.outcome());
          return answer;
        });
  }

  /** One call to the provider, its attempts and their waits included. */
  private ProviderAnswer send(OnceRequest request) {
    OnceResponse response;
    try {
      response = client.send(request);
    } catch (GaveUpException e) {
      // Time-outs, refused or broken connections, 5xx, 409s until the deadline: the provider may
      // or may not have applied it; the relay sends it again later under the same key.
      return new ProviderAnswer.Unavailable(
          "gave up after "
              + e.attempts()
              + " attempt(s): "
              + (e.lastStatus() > 0 ? "HTTP " + e.lastStatus() : simpleName(e.lastException())));
    } catch (IdempotencyKeyReusedException e) {
      return new ProviderAnswer.Rejected(422, "HTTP 422 idempotency-key-reused");
    } catch (CallInterruptedException e) {
      return new ProviderAnswer.Unavailable("interrupted"); // the flag is set again
    }
    return answer(response.status(), response.body());
  }

  /**
   * The request of one provider call: every header it carries is set here, so that a header for
   * every call (a trace context, say) has one place to go.
   */
  private static OnceRequest request(
      URI uri, String key, String jsonBody, Map<String, String> trace) {
    OnceRequest request =
        OnceRequest.post(uri).json(jsonBody).header("Accept", "application/json").key(key);
    for (Map.Entry<String, String> header : trace.entrySet()) {
      request = request.header(header.getKey(), header.getValue());
    }
    return request;
  }

  private static String simpleName(String className) {
    return className == null ? "no answer" : className.substring(className.lastIndexOf('.') + 1);
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
