package dev.once.verify.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The answer last read on an {@link HttpConnection}. The connection reuses this object: it is valid
 * until the next exchange on that connection.
 */
public final class HttpResponse {
  private final List<String> headers = new ArrayList<>(); // name, value, name, value, ...
  private int status;
  private byte[] body = new byte[4096];
  private int bodyLength;

  void reset() {
    headers.clear();
    status = 0;
    bodyLength = 0;
  }

  void status(int status) {
    this.status = status;
  }

  void addHeader(String name, String value) {
    headers.add(name);
    headers.add(value);
  }

  void appendBody(byte[] b, int offset, int count) {
    if (bodyLength + count > body.length) {
      body = Arrays.copyOf(body, Math.max(body.length * 2, bodyLength + count));
    }
    System.arraycopy(b, offset, body, bodyLength, count);
    bodyLength += count;
  }

  public int status() {
    return status;
  }

  /** The first value of the header {@code name} (case-insensitive), or null. */
  public String header(String name) {
    for (int i = 0; i < headers.size(); i += 2) {
      if (headers.get(i).equalsIgnoreCase(name)) {
        return headers.get(i + 1);
      }
    }
    return null;
  }

  public int bodyLength() {
    return bodyLength;
  }

  /** The body decoded as UTF-8 (chunked bodies are already joined). */
  public String bodyText() {
    return new String(body, 0, bodyLength, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    String text = bodyText();
    return status + " " + (text.length() > 300 ? text.substring(0, 300) + "…" : text);
  }
}
