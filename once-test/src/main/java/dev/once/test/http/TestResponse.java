package dev.once.test.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One answer as a {@link HttpTarget} received it: status, headers (names compared
 * case-insensitively) and body bytes. Immutable.
 */
public final class TestResponse {
  private final int status;
  private final Map<String, List<String>> headers;
  private final byte[] body;

  /**
   * @param status the HTTP status
   * @param headers every header with its values; names as received
   * @param body the body, {@code null} or empty for none
   */
  public TestResponse(int status, Map<String, List<String>> headers, byte[] body) {
    Objects.requireNonNull(headers, "headers");
    Map<String, List<String>> copy = new LinkedHashMap<>();
    headers.forEach((name, values) -> copy.put(name, List.copyOf(new ArrayList<>(values))));
    this.status = status;
    this.headers = Collections.unmodifiableMap(copy);
    this.body = body == null ? new byte[0] : body.clone();
  }

  /** The answer an adapter gives for an exception the server-side stack threw: a bare 500. */
  static TestResponse serverFailure() {
    return new TestResponse(500, Map.of(), new byte[0]);
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The first value of the header {@code name}, compared case-insensitively, or {@code null}. */
  public String header(String name) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
        return header.getValue().get(0);
      }
    }
    return null;
  }

  /** Every header with its values, names as received. */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /** A copy of the body; empty when the answer has none. */
  public byte[] body() {
    return body.clone();
  }

  /** The body as UTF-8 text. */
  public String bodyText() {
    return new String(body, UTF_8);
  }

  /** The status and the body, cut to 200 characters; no headers. */
  @Override
  public String toString() {
    String text = bodyText();
    return "status "
        + status
        + (text.isEmpty()
            ? ", no body"
            : ", body " + (text.length() > 200 ? text.substring(0, 200) + "…" : text));
  }
}
