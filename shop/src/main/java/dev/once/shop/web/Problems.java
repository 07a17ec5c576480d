package dev.once.shop.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders RFC 9457 {@code application/problem+json} answers, from controllers and from servlet
 * filters alike, so that every error of the shop has the same shape: {@code type} (the configured
 * base, shared with Once's filter, plus a stable slug), {@code title}, {@code status}, {@code
 * detail} and, for a bad field, {@code field}. Every 503 carries {@code Retry-After}. Thread-safe.
 */
@Component
public class Problems {
  /** The media type of every error answer. */
  public static final MediaType PROBLEM_JSON = MediaType.APPLICATION_PROBLEM_JSON;

  /**
   * {@code Retry-After} of every 503: the conditions behind it (a full pool, a cancelled statement,
   * a restarting database) pass in about that time, and Once's filter suggests the same.
   */
  static final String RETRY_AFTER_SECONDS = "1";

  private final String typeBase;
  private final JsonMapper json;

  public Problems(
      @Value("${once.idempotency.http.problem-type-base:https://once.dev/problems/}")
          String typeBase,
      JsonMapper json) {
    this.typeBase = typeBase;
    this.json = json;
  }

  /** The answer for a condition the shop raised itself. */
  public ResponseEntity<Object> of(ShopException e) {
    Map<String, Object> body = body(e.problem(), e.getMessage());
    e.field().ifPresent(field -> body.put("field", field));
    return entity(e.problem().status(), new HttpHeaders(), body);
  }

  /** The answer for {@code problem} with {@code detail}. */
  public ResponseEntity<Object> of(ShopProblem problem, String detail) {
    return entity(problem.status(), new HttpHeaders(), body(problem, detail));
  }

  /** The answer with the given status and headers (e.g. {@code Allow} on a 405). */
  public ResponseEntity<Object> of(
      HttpStatusCode status, HttpHeaders headers, String slug, String title, String detail) {
    return entity(status, headers, body(status.value(), slug, title, detail));
  }

  /** The answer for a bare status, with the given headers (e.g. {@code Allow} on a 405). */
  public ResponseEntity<Object> of(HttpStatusCode status, HttpHeaders headers, StatusProblem p) {
    return of(status, headers, p.slug(), p.title(), p.detail());
  }

  /**
   * Writes {@code problem} straight to a servlet response, for filters that answer before any
   * controller runs.
   */
  public void write(HttpServletResponse response, ShopProblem problem, String detail)
      throws IOException {
    byte[] bytes = json.writeValueAsBytes(body(problem, detail));
    response.setStatus(problem.status().value());
    if (problem.status() == HttpStatus.SERVICE_UNAVAILABLE) {
      response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    response.setContentType(PROBLEM_JSON.toString());
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  /** The {@code type} URI of a slug. */
  public String type(String slug) {
    return typeBase + slug;
  }

  private Map<String, Object> body(ShopProblem problem, String detail) {
    return body(problem.status().value(), problem.slug(), problem.title(), detail);
  }

  private Map<String, Object> body(int status, String slug, String title, String detail) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", type(slug));
    body.put("title", title);
    body.put("status", status);
    body.put("detail", detail);
    return body;
  }

  private static ResponseEntity<Object> entity(
      HttpStatusCode status, HttpHeaders headers, Map<String, Object> body) {
    if (status.value() == HttpStatus.SERVICE_UNAVAILABLE.value()
        && headers.getFirst(HttpHeaders.RETRY_AFTER) == null) {
      // A 503 tells the client to come back; Retry-After tells it when.
      headers.set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return ResponseEntity.status(status).headers(headers).contentType(PROBLEM_JSON).body(body);
  }
}
