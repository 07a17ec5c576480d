package dev.once.spring.client;

import dev.once.client.CallRetryPolicy;
import dev.once.client.Exchange;
import dev.once.client.ProblemType;
import dev.once.client.Retrier;
import java.io.IOException;
import java.util.Objects;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.support.HttpRequestWrapper;
import org.springframework.util.StreamUtils;

/**
 * A {@code RestClient} (or {@code RestTemplate}) interceptor that sends each request under one
 * {@code Idempotency-Key} and retries it by once-client's rules ({@link Retrier}):
 *
 * <ul>
 *   <li>the key is the request's own {@code Idempotency-Key} header if it has one; else a fresh
 *       UUIDv7 for a method that is not safe; a safe method (GET, HEAD) goes without one; the
 *       request attribute {@link #WITHOUT_KEY} set to {@code true} opts out (then only a safe
 *       method is retried);
 *   <li>connection errors, time-outs, 408, 425, 429, 5xx and a 409 {@code idempotency-key-in-use}
 *       are retried with backoff or the answer's {@code Retry-After}, within the policy's total
 *       deadline; any other answer is returned as it came;
 *   <li>it throws once-client's exceptions unwrapped: {@link dev.once.client.GaveUpException},
 *       {@link dev.once.client.IdempotencyKeyReusedException}, {@link
 *       dev.once.client.CallInterruptedException}.
 * </ul>
 *
 * <p>Each attempt's own time-out is the request factory's (its connect and read time-outs): an
 * interceptor cannot set one per attempt; the deadline bounds the waits and when an attempt may
 * start. It should be the last interceptor, so that the others run once per call. Thread-safe.
 *
 * <pre>{@code
 * RestClient client = RestClient.builder()
 *     .requestInterceptor(OnceRetryInterceptor.of(CallRetryPolicy.builder()
 *         .deadline(Duration.ofSeconds(10)).build()))
 *     .build();
 * }</pre>
 */
public final class OnceRetryInterceptor implements ClientHttpRequestInterceptor {
  /** Request attribute: {@code Boolean.TRUE} sends the request without a key. */
  public static final String WITHOUT_KEY = OnceRetryInterceptor.class.getName() + ".withoutKey";

  private static final String KEY = "Idempotency-Key";

  private final Retrier retrier;

  /** An interceptor running {@code retrier}'s calls (its policy, listener, clock, sleeper). */
  public OnceRetryInterceptor(Retrier retrier) {
    this.retrier = Objects.requireNonNull(retrier, "retrier");
  }

  /** An interceptor with {@code policy} and otherwise once-client's defaults. */
  public static OnceRetryInterceptor of(CallRetryPolicy policy) {
    return new OnceRetryInterceptor(Retrier.builder().policy(policy).build());
  }

  @Override
  public ClientHttpResponse intercept(
      HttpRequest request, byte[] body, ClientHttpRequestExecution execution) {
    String method = request.getMethod().name();
    String given = request.getHeaders().getFirst(KEY);
    boolean optOut = Boolean.TRUE.equals(request.getAttributes().get(WITHOUT_KEY));
    String key = retrier.keyFor(method, given, optOut);
    HttpRequest keyed = key == null || key.equals(given) ? request : withKey(request, key);
    Exchange<ClientHttpResponse> attempt = timeout -> reply(execution.execute(keyed, body));
    return retrier.run(method, request.getURI(), key, attempt).response();
  }

  /** The request with {@code key} in a copy of its headers (the original's are read-only). */
  private static HttpRequest withKey(HttpRequest request, String key) {
    HttpHeaders headers = new HttpHeaders();
    headers.putAll(request.getHeaders());
    headers.set(KEY, key);
    return new HttpRequestWrapper(request) {
      @Override
      public HttpHeaders getHeaders() {
        return headers;
      }
    };
  }

  /**
   * What the retrier needs of an answer. The body is read only for a 409 or 422 problem (to tell a
   * key in use or reused from another conflict), and then kept for the caller.
   */
  private static Exchange.Reply<ClientHttpResponse> reply(ClientHttpResponse response)
      throws IOException {
    int status = response.getStatusCode().value();
    String retryAfter = response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER);
    String contentType = response.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
    if ((status == 409 || status == 422) && contentType != null) {
      byte[] bytes = StreamUtils.copyToByteArray(response.getBody());
      return new Exchange.Reply<>(
          status,
          retryAfter,
          ProblemType.of(contentType, bytes),
          new BufferedResponse(response, bytes));
    }
    return new Exchange.Reply<>(status, retryAfter, null, response);
  }
}
