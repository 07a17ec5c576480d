package dev.once.spring.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Holds the handler's answer until the transaction has committed, so a client never sees an answer
 * that is not durable. Also notes when the handler hands the answer to the container through {@code
 * sendError} or {@code sendRedirect}: the container then writes the final body after the filter
 * returns, so that answer can be neither held back nor stored faithfully.
 */
final class BufferedResponse extends ContentCachingResponseWrapper {
  private boolean handedToContainer;

  BufferedResponse(HttpServletResponse response) {
    super(response);
  }

  @Override
  public void sendError(int status) throws IOException {
    handedToContainer = true;
    super.sendError(status);
  }

  @Override
  public void sendError(int status, String message) throws IOException {
    handedToContainer = true;
    super.sendError(status, message);
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    handedToContainer = true;
    super.sendRedirect(location);
  }

  /** Whether the answer went to the container's error or redirect handling. */
  boolean handedToContainer() {
    return handedToContainer;
  }
}
