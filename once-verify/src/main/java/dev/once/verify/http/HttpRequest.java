package dev.once.verify.http;

import java.nio.charset.StandardCharsets;

/**
 * Writes HTTP/1.1 requests for a fixed host: a convenience for set-up requests; the load scenarios
 * write their fixed part once with {@link #head} and append only what varies.
 */
public final class HttpRequest {
  private HttpRequest() {}

  /**
   * The request line and the {@code Host} header, followed by {@code headers} (each {@code "Name:
   * value"}), without the blank line that ends the head.
   */
  public static byte[] head(String method, String path, String host, String... headers) {
    RequestBytes out = new RequestBytes();
    out.appendAscii(method).appendAscii(" ").appendAscii(path).appendAscii(" HTTP/1.1").crlf();
    out.appendAscii("Host: ").appendAscii(host).crlf();
    for (String header : headers) {
      out.appendAscii(header).crlf();
    }
    return out.toByteArray();
  }

  /**
   * A whole request: {@code head}, then {@code Content-Length} and {@code body} (UTF-8) if {@code
   * body} is not null.
   */
  public static RequestBytes write(RequestBytes out, byte[] head, String body) {
    out.reset().append(head);
    if (body != null) {
      out.body(body.getBytes(StandardCharsets.UTF_8));
    } else {
      out.crlf();
    }
    return out;
  }
}
