package dev.once.spring.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Holds the handler's answer until the transaction has committed, so a client never sees an answer
 * that is not durable; a redirect is held too. Also notes when the handler hands the answer to the
 * container through {@code sendError}: the container then writes the final body after the filter
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

  /**
   * Held like any other answer instead of being committed at once: 302 with the location, so the
   * redirect is stored with the transaction and sent only after it commits.
   */
  @Override
  public void sendRedirect(String location) {
    resetBuffer();
    setStatus(HttpServletResponse.SC_FOUND);
    setHeader("Location", location);
  }

  /** Whether the answer went to the container's error handling. */
  boolean handedToContainer() {
    return handedToContainer;
  }
}
