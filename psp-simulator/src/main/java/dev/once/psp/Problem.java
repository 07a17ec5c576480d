package dev.once.psp;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem, thrown where a request is rejected and written by the router as {@code
 * application/problem+json}. Its {@code type} is {@code https://once.dev/psp/problems/<slug>}.
 */
final class Problem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  static final String TYPE_PREFIX = "https://once.dev/psp/problems/";

  final int status;
  final String slug;
  final String title;
  final String field;
  final Map<String, String> headers;

  private Problem(
      int status,
      String slug,
      String title,
      String detail,
      String field,
      Map<String, String> headers) {
    super(detail, null, false, false);
    this.status = status;
    this.slug = slug;
    this.title = title;
    this.field = field;
    this.headers = headers;
  }

  static Problem of(int status, String slug, String title, String detail) {
    return new Problem(status, slug, title, detail, null, Map.of());
  }

  Problem withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new Problem(status, slug, title, getMessage(), field, Map.copyOf(more));
  }

  static Problem invalidRequest(String field, String detail) {
    return new Problem(422, "invalid-request", "Invalid request", detail, field, Map.of());
  }

  static Problem invalidIdempotencyKey(String detail) {
    return of(400, "invalid-idempotency-key", "Invalid Idempotency-Key", detail);
  }

  static Problem malformedJson(String detail) {
    return of(400, "malformed-json", "Malformed JSON", detail);
  }

  byte[] body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", TYPE_PREFIX + slug);
    body.put("title", title);
    body.put("status", status);
    body.put("detail", getMessage());
    if (field != null) {
      body.put("field", field);
    }
    return Json.write(body);
  }
}
