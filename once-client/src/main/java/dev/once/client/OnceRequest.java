package dev.once.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A request to send through {@link OnceClient}: method, URI, headers, body, and its key rule.
 * Immutable: every {@code with}-style method returns a new request, so one can be shared between
 * threads and sent again.
 *
 * <p>Key rule: {@link #key(String)} sets the caller's key (for a retry of an operation the caller
 * already sent, derive it from the operation's own id); without one, a request whose method is not
 * safe gets a fresh UUIDv7 per {@link OnceClient#send send}, kept for all its attempts; {@link
 * #withoutKey()} opts out (then only a safe method is retried).
 */
public final class OnceRequest {
  private final String method;
  private final URI uri;
  private final List<Map.Entry<String, String>> headers;
  private final byte[] body;
  private final String key;
  private final boolean withoutKey;

  private OnceRequest(
      String method,
      URI uri,
      List<Map.Entry<String, String>> headers,
      byte[] body,
      String key,
      boolean withoutKey) {
    this.method = method;
    this.uri = uri;
    this.headers = headers;
    this.body = body;
    this.key = key;
    this.withoutKey = withoutKey;
  }

  /** A request with {@code method} (upper-case letters, such as {@code PATCH}) to {@code uri}. */
  public static OnceRequest of(String method, URI uri) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    if (!method.matches("[A-Z]{1,20}")) {
      throw new IllegalArgumentException("method must be 1 to 20 upper-case letters: " + method);
    }
    if (!uri.isAbsolute()) {
      throw new IllegalArgumentException("uri must be absolute: " + uri);
    }
    return new OnceRequest(method, uri, List.of(), null, null, false);
  }

  public static OnceRequest get(URI uri) {
    return of("GET", uri);
  }

  public static OnceRequest post(URI uri) {
    return of("POST", uri);
  }

  public static OnceRequest put(URI uri) {
    return of("PUT", uri);
  }

  public static OnceRequest delete(URI uri) {
    return of("DELETE", uri);
  }

  /** This request with a JSON body ({@code Content-Type: application/json}, UTF-8). */
  public OnceRequest json(String json) {
    return body("application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  /** This request with {@code body} of {@code contentType} (the array is copied). */
  public OnceRequest body(String contentType, byte[] body) {
    List<Map.Entry<String, String>> h = new ArrayList<>();
    for (Map.Entry<String, String> e : headers) {
      if (!e.getKey().equalsIgnoreCase("Content-Type")) {
        h.add(e);
      }
    }
    h.add(Map.entry("Content-Type", Objects.requireNonNull(contentType, "contentType")));
    return new OnceRequest(method, uri, List.copyOf(h), body.clone(), key, withoutKey);
  }

  /**
   * This request with one more header (sent on every attempt). The key is not a header here: use
   * {@link #key(String)}.
   */
  public OnceRequest header(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.equalsIgnoreCase("Idempotency-Key")) {
      throw new IllegalArgumentException("set the Idempotency-Key with key(String)");
    }
    List<Map.Entry<String, String>> h = new ArrayList<>(headers);
    h.add(Map.entry(name, value));
    return new OnceRequest(method, uri, List.copyOf(h), body, key, withoutKey);
  }

  /**
   * This request with the caller's key: 1 to 255 visible ASCII characters (0x21 to 0x7E).
   *
   * @throws IllegalArgumentException for another key (the message does not repeat it)
   */
  public OnceRequest key(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
      throw new IllegalArgumentException(
          "an Idempotency-Key must be 1 to 255 visible ASCII characters (length "
              + key.length()
              + ")");
    }
    return new OnceRequest(method, uri, headers, body, key, false);
  }

  /** This request without an Idempotency-Key: retried only if its method is safe (GET, HEAD). */
  public OnceRequest withoutKey() {
    return new OnceRequest(method, uri, headers, body, null, true);
  }

  public String method() {
    return method;
  }

  public URI uri() {
    return uri;
  }

  /** The headers in the order added, the key aside. */
  public List<Map.Entry<String, String>> headers() {
    return headers;
  }

  /** The caller's key, or null (then the key rule applies). */
  public String key() {
    return key;
  }

  /** Whether the caller opted out of a key. */
  public boolean isWithoutKey() {
    return withoutKey;
  }

  byte[] bodyBytes() {
    return body;
  }

  /** Method and URI only: never the body or the key. */
  @Override
  public String toString() {
    return method + " " + uri + (body == null ? "" : " (" + body.length + " bytes)");
  }
}
