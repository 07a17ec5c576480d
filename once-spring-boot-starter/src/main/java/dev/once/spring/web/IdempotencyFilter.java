package dev.once.spring.web;

import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyKey;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.InvalidIdempotencyKeyException;
import dev.once.json.JsonCanonicalizer;
import dev.once.json.JsonTooDeepException;
import dev.once.json.MalformedJsonException;
import dev.once.spring.metrics.IdempotencyMetrics;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Servlet filter that implements the HTTP idempotency contract for the endpoints the application
 * marks idempotent ({@link Idempotent} on the handler, or {@code once.idempotency.http.paths}; see
 * {@link IdempotentEndpoints}). A request to an endpoint marked {@code @Idempotent(required =
 * false)} without an {@code Idempotency-Key} header passes untouched.
 *
 * <p>Before anything is looked up it checks, in this order: the authenticated client (401), the
 * {@code Idempotency-Key} header (400), the body size (413) and, for JSON bodies, the syntax and
 * nesting depth (400). None of these answers is stored. Then the client's caps ({@link
 * ClientCaps}): a request over them is answered 429 with {@code Retry-After} before its key is
 * claimed, so it holds no connection and its key stays free. It then hands the request to {@link
 * KeyedHttpRequests}, which claims the key, runs the handler and stores its answer in one
 * transaction. Thread-safe; holds no per-request state.
 */
final class IdempotencyFilter extends OncePerRequestFilter implements Ordered {
  private static final Logger log = LoggerFactory.getLogger(IdempotencyFilter.class);

  private final IdempotentEndpoints endpoints;
  private final IdempotencyClientResolver clients;
  private final JsonCanonicalizer canonicalizer;
  private final KeyedHttpRequests execution;
  private final ProblemResponses problems;
  private final IdempotencyMetrics metrics;
  private final ClientCaps caps;
  private final int maxBodyBytes;
  private final int order;

  /**
   * @param caps the per-client caps, {@link ClientCaps#none()} for none
   * @param maxBodyBytes largest accepted body; larger bodies are answered 413 without being read
   * @param order the filter's order; it must come after the application's authentication
   */
  public IdempotencyFilter(
      IdempotentEndpoints endpoints,
      IdempotencyClientResolver clients,
      JsonCanonicalizer canonicalizer,
      KeyedHttpRequests execution,
      String problemTypeBase,
      IdempotencyMetrics metrics,
      ClientCaps caps,
      int maxBodyBytes,
      int order) {
    this.endpoints = endpoints;
    this.clients = clients;
    this.canonicalizer = canonicalizer;
    this.execution = execution;
    this.problems = new ProblemResponses(problemTypeBase);
    this.metrics = metrics;
    this.caps = caps;
    this.maxBodyBytes = maxBodyBytes;
    this.order = order;
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    IdempotentEndpoints.Endpoint endpoint = endpoints.endpoint(request);
    IdempotentEndpoints.Need need = endpoint.need();
    if (need == IdempotentEndpoints.Need.NONE
        || (need == IdempotentEndpoints.Need.OPTIONAL
            && request.getHeader(IdempotencyKey.HEADER) == null)) {
      // Not idempotent, or idempotent on request only and sent without a key: runs as it is.
      chain.doFilter(request, response);
      return;
    }
    Optional<String> client = clients.clientId(request);
    if (client.isEmpty()) {
      reject(response, OnceProblem.UNAUTHORIZED, "This endpoint needs an authenticated client.");
      return;
    }
    IdempotencyKey key;
    try {
      key =
          IdempotencyKey.fromHeaderValues(
              Collections.list(request.getHeaders(IdempotencyKey.HEADER)));
    } catch (InvalidIdempotencyKeyException e) {
      boolean missing = e.reason() == InvalidIdempotencyKeyException.Reason.MISSING;
      reject(response, missing ? OnceProblem.KEY_MISSING : OnceProblem.KEY_INVALID, e.getMessage());
      return;
    }
    IdempotencyScope scope;
    try {
      scope = new IdempotencyScope(client.get(), key);
    } catch (IllegalArgumentException e) {
      log.error("The IdempotencyClientResolver returned an unusable client id: {}", e.getMessage());
      misconfigured(response);
      return;
    }
    byte[] body = readBody(request);
    if (body != null && request.getContentLengthLong() > body.length) {
      // Something before this filter consumed the body (e.g. a filter that read form parameters):
      // a fingerprint of what is left would let a different request replay this key's answer.
      log.error(
          "The request body was read before Once's idempotency filter; register the filter"
              + " before anything that reads the body or its form parameters");
      misconfigured(response);
      return;
    }
    if (body == null) {
      reject(
          response,
          OnceProblem.PAYLOAD_TOO_LARGE,
          "The request body is larger than " + maxBodyBytes + " bytes.");
      return;
    }
    Fingerprint fingerprint;
    try {
      fingerprint =
          Fingerprint.of(
              request.getMethod(),
              pathWithQuery(request),
              request.getContentType(),
              body,
              canonicalizer);
    } catch (JsonTooDeepException e) {
      reject(
          response,
          OnceProblem.JSON_TOO_DEEP,
          "The JSON body is nested deeper than " + e.maxDepth() + " levels.");
      return;
    } catch (MalformedJsonException e) {
      reject(
          response,
          OnceProblem.MALFORMED_JSON,
          "The request body is not valid JSON: " + e.getMessage());
      return;
    }
    ClientCaps.Admission admission = caps.admit(scope.clientId());
    if (admission instanceof ClientCaps.Refused refused) {
      metrics.requestFinished(IdempotencyMetrics.Outcome.LIMITED);
      problems.write(
          response, refused.problem(), limitDetail(refused.problem()), refused.retryAfterSeconds());
      return;
    }
    // Closed before the answer is written (and again, harmlessly, if the request fails): the
    // client that got this answer may send its next request before this thread returns.
    try (ClientCaps.Admitted admitted = (ClientCaps.Admitted) admission) {
      execution.execute(
          scope,
          fingerprint,
          endpoint.retention(),
          new CachedBodyRequest(request, body),
          response,
          chain,
          admitted::notNew,
          admitted::close);
    }
  }

  private static String limitDetail(OnceProblem problem) {
    return problem == OnceProblem.TOO_MANY_IN_FLIGHT
        ? "This client has as many requests in flight as it may; nothing of this request was"
            + " executed: send it again with the same Idempotency-Key after Retry-After."
        : "This client started as many new Idempotency-Keys as it may per minute; nothing of this"
            + " request was executed: send it again with the same Idempotency-Key after"
            + " Retry-After.";
  }

  private void misconfigured(HttpServletResponse response) throws IOException {
    metrics.requestFinished(IdempotencyMetrics.Outcome.REJECTED);
    problems.write(
        response,
        OnceProblem.INTERNAL_ERROR,
        "The request was not executed because of a server configuration error.");
  }

  private void reject(HttpServletResponse response, OnceProblem problem, String detail)
      throws IOException {
    metrics.requestFinished(IdempotencyMetrics.Outcome.REJECTED);
    problems.write(response, problem, detail);
  }

  /** The body, or {@code null} if it is larger than the limit. */
  private byte[] readBody(HttpServletRequest request) throws IOException {
    long declared = request.getContentLengthLong();
    if (declared > maxBodyBytes) {
      return null;
    }
    if (declared >= 0) {
      // The common case: the declared length, read into one array without copies. The container
      // never hands out more than declared; less means the stream was read before (checked by
      // the caller).
      try (InputStream in = request.getInputStream()) {
        return in.readNBytes((int) declared);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    byte[] buffer = new byte[8192];
    try (InputStream in = request.getInputStream()) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        if (out.size() + n > maxBodyBytes) {
          return null;
        }
        out.write(buffer, 0, n);
      }
    }
    return out.toByteArray();
  }

  private static String pathWithQuery(HttpServletRequest request) {
    String query = request.getQueryString();
    return query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query;
  }
}
