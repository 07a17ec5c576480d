package dev.once.verify.http;

import java.io.IOException;

/** The server's answer is not well-formed HTTP/1.1; the connection it came on is closed. */
public final class HttpProtocolException extends IOException {
  private static final long serialVersionUID = 1L;

  public HttpProtocolException(String message) {
    super(message);
  }
}
