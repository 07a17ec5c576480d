package dev.once.spring.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes RFC 9457 {@code application/problem+json} answers for the conditions the filter decides
 * itself. Details are fixed sentences: never a stored payload, a key, SQL or a stack trace.
 */
final class ProblemResponses {
  private final String typeBase;

  ProblemResponses(String typeBase) {
    this.typeBase = typeBase;
  }

  void write(HttpServletResponse response, OnceProblem problem, String detail) throws IOException {
    write(response, problem, detail, -1);
  }

  /** As {@link #write}, with a {@code Retry-After} header when {@code retryAfterSeconds >= 0}. */
  void write(
      HttpServletResponse response, OnceProblem problem, String detail, long retryAfterSeconds)
      throws IOException {
    int status = problem.status();
    if (!response.isCommitted()) {
      response.reset();
    }
    response.setStatus(status);
    if (retryAfterSeconds >= 0) {
      response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
    }
    response.setContentType("application/problem+json");
    byte[] body =
        ("{\"type\":"
                + quote(typeBase + problem.slug())
                + ",\"title\":"
                + quote(problem.title())
                + ",\"status\":"
                + status
                + ",\"detail\":"
                + quote(detail)
                + "}")
            .getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
