package dev.once.shop.problems;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.once.spring.OnceProperties;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.stereotype.Component;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every error of the shop as an RFC 9457 {@link ProblemDetail}: {@code type} (Once's {@code
 * once.idempotency.http.problem-type-base}, shared with its filter, plus the slug), {@code title},
 * {@code status}, {@code detail} and, for a bad field, {@code field}. Every 503 carries {@code
 * Retry-After}: one second, or the delay load shedding suggests. Spring MVC renders the answers of
 * controllers; {@link #write} and {@link #json} render them where it does not run (the
 * authentication filters, Tomcat's error valve). Thread-safe.
 */
@Component
public class ProblemResponses {
  /**
   * {@code Retry-After} of every 503: the conditions behind it (a full pool, a cancelled statement,
   * a restarting database) pass in about that time, and Once's filter suggests the same.
   */
  public static final String RETRY_AFTER_SECONDS = "1";

  private static final String CANNOT_BE_PROCESSED = "The request cannot be processed.";
  private static final String INTERNAL =
      "The request could not be completed because of an internal error.";

  /** ASCII, so that Tomcat's error page needs no character encoding. */
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .build();

  private final String typeBase;

  public ProblemResponses(OnceProperties once) {
    this.typeBase = once.idempotency().http().problemTypeBase();
  }

  /** The problem {@code problem} with {@code detail}. */
  private ProblemDetail of(ShopProblem problem, String detail) {
    ProblemDetail body = untyped(problem, detail);
    body.setType(type(problem.slug()));
    return body;
  }

  /** The problem without its {@code type}, which needs the configured base. */
  static ProblemDetail untyped(ShopProblem problem, String detail) {
    ProblemDetail body = new Body(problem.status().value());
    body.setTitle(problem.title());
    body.setDetail(detail);
    return body;
  }

  /**
   * The problem for a bare HTTP status that no condition of the shop explains (Spring MVC's own
   * refusals, the container's error path, Tomcat's own answers): the shop's slug where it has one
   * for that status, {@code internal-error} for any other 5xx, {@code http-<status>} for any other
   * 4xx, and a generic sentence that names nothing internal.
   */
  public ProblemDetail forStatus(int status) {
    ProblemDetail body =
        switch (status) {
          case 400 -> of(ShopProblem.BAD_REQUEST, "The request is not valid.");
          case 401 -> of(ShopProblem.UNAUTHORIZED, CANNOT_BE_PROCESSED);
          case 404 -> of(ShopProblem.NOT_FOUND, "No resource exists at this path.");
          case 405 ->
              of(
                  ShopProblem.METHOD_NOT_ALLOWED,
                  "This path does not support the request's HTTP method.");
          case 406 ->
              of(
                  ShopProblem.NOT_ACCEPTABLE,
                  "The requested media type cannot be produced; accept application/json.");
          case 413 -> of(ShopProblem.PAYLOAD_TOO_LARGE, "The request body is too large.");
          case 415 ->
              of(ShopProblem.UNSUPPORTED_MEDIA_TYPE, "Send the request body as application/json.");
          case 431 ->
              of(
                  ShopProblem.REQUEST_HEADER_TOO_LARGE,
                  "The request's header fields are too large.");
          case 503 ->
              of(
                  ShopProblem.SERVICE_UNAVAILABLE,
                  "The service is briefly unavailable; retry the request.");
          default ->
              status >= 500 ? of(ShopProblem.INTERNAL_ERROR, INTERNAL) : otherClientError(status);
        };
    body.setStatus(status);
    return body;
  }

  private ProblemDetail otherClientError(int status) {
    ProblemDetail body = new Body(status);
    body.setType(type("http-" + status));
    body.setTitle("HTTP " + status);
    body.setDetail(CANNOT_BE_PROCESSED);
    return body;
  }

  /** A controller's answer for {@code problem} with {@code detail}. */
  public ResponseEntity<Object> answer(ShopProblem problem, String detail) {
    return entity(of(problem, detail), new HttpHeaders());
  }

  /** A controller's answer for {@code problem} with {@code detail} and {@code headers}. */
  public ResponseEntity<Object> answer(ShopProblem problem, String detail, HttpHeaders headers) {
    return entity(of(problem, detail), headers);
  }

  /** A controller's answer for a condition the shop raised itself. */
  public ResponseEntity<Object> answer(ShopException e) {
    e.getBody().setType(type(e.problem().slug()));
    return entity(e.getBody(), e.getHeaders());
  }

  /**
   * A controller's answer for a bare status, with {@code headers} (e.g. {@code Allow} on a 405).
   */
  public ResponseEntity<Object> answer(int status, HttpHeaders headers) {
    return entity(forStatus(status), headers);
  }

  /** Writes the problem straight to a servlet response, for filters that answer by themselves. */
  public void write(HttpServletResponse response, ShopProblem problem, String detail)
      throws IOException {
    byte[] bytes = json(of(problem, detail)).getBytes(StandardCharsets.US_ASCII);
    response.setStatus(problem.status().value());
    if (problem.status() == HttpStatus.SERVICE_UNAVAILABLE) {
      response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** {@code body} as JSON in ASCII, members in the order Spring MVC writes them. */
  public static String json(ProblemDetail body) {
    return JSON.writeValueAsString(body);
  }

  private static ResponseEntity<Object> entity(ProblemDetail body, HttpHeaders headers) {
    if (body.getStatus() == HttpStatus.SERVICE_UNAVAILABLE.value()
        && headers.getFirst(HttpHeaders.RETRY_AFTER) == null) {
      headers.set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return ResponseEntity.status(body.getStatus())
        .headers(headers)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(body);
  }

  /**
   * Spring's problem with its members in the order Once's filter writes them, without the {@code
   * instance} that Spring MVC would fill in with the request path: one shape for every answer.
   */
  @JsonPropertyOrder({"type", "title", "status", "detail"})
  @JsonIgnoreProperties("instance")
  private static final class Body extends ProblemDetail {
    private static final long serialVersionUID = 1L;

    Body(int status) {
      super(status);
    }
  }

  private URI type(String slug) {
    return URI.create(typeBase + slug);
  }
}
