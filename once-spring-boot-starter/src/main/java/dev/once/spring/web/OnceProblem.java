package dev.once.spring.web;

/**
 * Every problem that Once's filter answers by itself, with its stable slug (the last segment of the
 * RFC 9457 {@code type}, after {@code once.idempotency.http.problem-type-base}), HTTP status and
 * title. Applications that answer the same conditions themselves (a malformed body, a full
 * database) should use the same slugs, so that a client sees one vocabulary.
 */
public enum OnceProblem {
  /** 400: a non-safe request without {@code Idempotency-Key}. */
  KEY_MISSING("idempotency-key-missing", 400, "Idempotency-Key missing"),
  /** 400: an {@code Idempotency-Key} that is not 1–255 visible ASCII characters, or repeated. */
  KEY_INVALID("idempotency-key-invalid", 400, "Idempotency-Key invalid"),
  /** 422: the key was used before for a request with a different fingerprint. */
  KEY_REUSED("idempotency-key-reused", 422, "Idempotency-Key reused"),
  /** 409: a request with the key is still running; comes with {@code Retry-After}. */
  KEY_IN_USE("idempotency-key-in-use", 409, "Idempotency-Key in use"),
  /** 401: no authenticated client, so there is no scope for the key. */
  UNAUTHORIZED("unauthorized", 401, "Unauthorized"),
  /** 413: the body is larger than {@code once.idempotency.http.max-body-size}. */
  PAYLOAD_TOO_LARGE("payload-too-large", 413, "Payload too large"),
  /** 400: the JSON body nests deeper than {@code once.idempotency.http.max-json-depth}. */
  JSON_TOO_DEEP("json-too-deep", 400, "JSON nested too deeply"),
  /** 400: the body is not one well-formed JSON value. */
  MALFORMED_JSON("malformed-json", 400, "Malformed JSON"),
  /** 500: the request was not completed and nothing of it was committed. */
  INTERNAL_ERROR("internal-error", 500, "Internal error"),
  /** 503: the database could not be reached in time; comes with {@code Retry-After}. */
  SERVICE_UNAVAILABLE("service-unavailable", 503, "Service unavailable"),
  /**
   * 503: load shedding refused the request because the outbox's relay is too far behind ({@code
   * once.outbox.load-shedding.*}); nothing of it was committed; comes with {@code Retry-After}.
   */
  OUTBOX_OVERLOADED("outbox-overloaded", 503, "Outbox overloaded"),
  /**
   * 429: the client already has {@code once.idempotency.limits.max-in-flight-per-client} requests
   * running; nothing was looked up or executed, the key is free; comes with {@code Retry-After}.
   */
  TOO_MANY_IN_FLIGHT("too-many-requests-in-flight", 429, "Too many requests in flight"),
  /**
   * 429: the client started {@code once.idempotency.limits.new-keys-per-minute} new keys within the
   * last minute; nothing was looked up or executed, the key is free; comes with {@code
   * Retry-After}.
   */
  TOO_MANY_NEW_KEYS("too-many-new-keys", 429, "Too many new idempotency keys"),
  /**
   * 422: the handler's success answer is larger than {@code
   * once.idempotency.limits.max-answer-size} and could not be stored with the key, so nothing of
   * the request was committed and the key is free.
   */
  ANSWER_TOO_LARGE("answer-too-large", 422, "Answer too large");

  private final String slug;
  private final int status;
  private final String title;

  OnceProblem(String slug, int status, String title) {
    this.slug = slug;
    this.status = status;
    this.title = title;
  }

  /** The stable last segment of the problem's {@code type} URI. */
  public String slug() {
    return slug;
  }

  /** The HTTP status answered with this problem. */
  public int status() {
    return status;
  }

  /** A short, fixed, human-readable summary. */
  public String title() {
    return title;
  }
}
