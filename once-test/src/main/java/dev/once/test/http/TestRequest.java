package dev.once.test.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One HTTP request as a test sends it to the endpoint under test: method, path (with query),
 * headers and body. Immutable: every {@code header}, {@code with...} and {@code without...} returns
 * a new request. It never carries the {@code Idempotency-Key}: {@link EndpointAssert} adds a fresh
 * key of its own to every check. Its {@link #toString()} never shows the {@code Authorization}
 * header.
 */
public final class TestRequest {
  private static final String AUTHORIZATION = "Authorization";

  private final String method;
  private final String path;
  private final List<Map.Entry<String, String>> headers;
  private final byte[] body;
  private final String contentType;

  private TestRequest(
      String method,
      String path,
      List<Map.Entry<String, String>> headers,
      byte[] body,
      String contentType) {
    this.method = method;
    this.path = path;
    this.headers = List.copyOf(headers);
    this.body = body;
    this.contentType = contentType;
  }

  /** A POST to {@code path} (absolute path with optional query, e.g. {@code /v1/payments}). */
  public static TestRequest post(String path) {
    return of("POST", path);
  }

  /** A PUT to {@code path}. */
  public static TestRequest put(String path) {
    return of("PUT", path);
  }

  /** A PATCH to {@code path}. */
  public static TestRequest patch(String path) {
    return of("PATCH", path);
  }

  /** A DELETE of {@code path}. */
  public static TestRequest delete(String path) {
    return of("DELETE", path);
  }

  private static TestRequest of(String method, String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("the path must start with '/': " + path);
    }
    return new TestRequest(method, path, List.of(), new byte[0], null);
  }

  /** This request with one more header {@code name: value} (a header already set is kept). */
  public TestRequest header(String name, String value) {
    Objects.requireNonNull(name, "header name");
    Objects.requireNonNull(value, "header value");
    List<Map.Entry<String, String>> more = new ArrayList<>(headers);
    more.add(Map.entry(name, value));
    return new TestRequest(method, path, more, body, contentType);
  }

  /** This request with {@code name: value} replacing every value of the header {@code name}. */
  public TestRequest withHeader(String name, String value) {
    return withoutHeader(name).header(name, value);
  }

  /** This request without the header {@code name} (case-insensitive). */
  public TestRequest withoutHeader(String name) {
    Objects.requireNonNull(name, "header name");
    List<Map.Entry<String, String>> rest = new ArrayList<>(headers);
    rest.removeIf(header -> header.getKey().equalsIgnoreCase(name));
    return new TestRequest(method, path, rest, body, contentType);
  }

  /** This request with {@code Authorization: Bearer <token>}. */
  public TestRequest bearer(String token) {
    return withHeader(AUTHORIZATION, "Bearer " + Objects.requireNonNull(token, "token"));
  }

  /** This request with the JSON {@code body} (UTF-8, content type {@code application/json}). */
  public TestRequest json(String body) {
    return body(Objects.requireNonNull(body, "body").getBytes(UTF_8), "application/json");
  }

  /** This request with {@code body} of {@code contentType}. */
  public TestRequest body(byte[] body, String contentType) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(contentType, "content type");
    return new TestRequest(method, path, headers, body.clone(), contentType);
  }

  /** This request with another body of the same content type. */
  public TestRequest withBody(byte[] body) {
    Objects.requireNonNull(body, "body");
    return new TestRequest(method, path, headers, body.clone(), contentType);
  }

  /** The method: POST, PUT, PATCH or DELETE. */
  public String method() {
    return method;
  }

  /** The path with its query. */
  public String path() {
    return path;
  }

  /** The headers in the order they were set, names as given; no Content-Type (see below). */
  public Map<String, List<String>> headers() {
    Map<String, List<String>> all = new LinkedHashMap<>();
    for (Map.Entry<String, String> header : headers) {
      all.computeIfAbsent(header.getKey(), name -> new ArrayList<>()).add(header.getValue());
    }
    all.replaceAll((name, values) -> List.copyOf(values));
    return Collections.unmodifiableMap(all);
  }

  /** The first value of the header {@code name} (case-insensitive), or {@code null}. */
  public String header(String name) {
    for (Map.Entry<String, String> header : headers) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return header.getValue();
      }
    }
    return null;
  }

  /** A copy of the body; empty when the request has none. */
  public byte[] body() {
    return body.clone();
  }

  /** The body's content type, or {@code null} when the request has no body. */
  public String contentType() {
    return contentType;
  }

  /** Method, path, header names (no values: they may hold credentials) and body size. */
  @Override
  public String toString() {
    return method + " " + path + " " + headers().keySet() + " (" + body.length + " bytes body)";
  }
}
