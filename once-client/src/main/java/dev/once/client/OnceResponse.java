package dev.once.client;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The answer of a call: the last attempt's status, headers and body, whether the server replayed a
 * stored answer ({@code Idempotent-Replayed: true}), how many attempts it took and under which key.
 * Immutable.
 */
public final class OnceResponse {
  private final int status;
  private final HttpHeaders headers;
  private final byte[] body;
  private final int attempts;
  private final String key;

  OnceResponse(int status, HttpHeaders headers, byte[] body, int attempts, String key) {
    this.status = status;
    this.headers = headers;
    this.body = body;
    this.attempts = attempts;
    this.key = key;
  }

  public int status() {
    return status;
  }

  public HttpHeaders headers() {
    return headers;
  }

  /** The first value of header {@code name} (case-insensitive). */
  public Optional<String> header(String name) {
    return headers.firstValue(name);
  }

  /** The body as UTF-8 text. */
  public String body() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** The body's bytes (a copy). */
  public byte[] bodyBytes() {
    return body.clone();
  }

  /** Whether the server answered with a stored answer ({@code Idempotent-Replayed: true}). */
  public boolean replayed() {
    return headers
        .firstValue("Idempotent-Replayed")
        .map(v -> v.trim().equalsIgnoreCase("true"))
        .orElse(false);
  }

  /** How many attempts the call took, at least 1. */
  public int attempts() {
    return attempts;
  }

  /** The key every attempt carried, or null if the call had none. */
  public String key() {
    return key;
  }

  /** The problem type if this is an {@code application/problem+json} answer, or null. */
  public String problemType() {
    return ProblemType.of(headers.firstValue("Content-Type").orElse(null), body);
  }

  /** Status and attempts only: never the body or the key. */
  @Override
  public String toString() {
    return "OnceResponse[status="
        + status
        + ", attempts="
        + attempts
        + ", replayed="
        + replayed()
        + "]";
  }
}
