package dev.once.psp;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reading requests and writing answers on a {@link HttpExchange}. */
final class Http {
  static final int MAX_BODY = 64 * 1024;
  static final int MAX_KEY = 255;
  static final String JSON = "application/json";
  static final String PROBLEM_JSON = "application/problem+json";

  private Http() {}

  /** The one {@code Idempotency-Key}: 1 to 255 visible ASCII characters (0x21 to 0x7E). */
  static String idempotencyKey(HttpExchange exchange) {
    List<String> values = exchange.getRequestHeaders().get("Idempotency-Key");
    if (values == null || values.isEmpty()) {
      throw Problem.invalidIdempotencyKey("The Idempotency-Key header is required.");
    }
    if (values.size() > 1) {
      throw Problem.invalidIdempotencyKey("Send exactly one Idempotency-Key header.");
    }
    String key = values.get(0);
    if (key.isEmpty()
        || key.length() > MAX_KEY
        || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
      throw Problem.invalidIdempotencyKey(
          "The Idempotency-Key must be 1 to 255 visible ASCII characters (0x21 to 0x7E).");
    }
    return key;
  }

  /** The body of a request that must be {@code application/json} (415) of at most 64 KiB (413). */
  static byte[] jsonBody(HttpExchange exchange) throws IOException {
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!isJson(contentType)) {
      throw Problem.of(
          415,
          "unsupported-media-type",
          "Unsupported media type",
          "The body must be sent as application/json (UTF-8).");
    }
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.trim()) > MAX_BODY) {
          throw tooLarge();
        }
      } catch (NumberFormatException e) {
        // The server has already rejected a broken Content-Length; read and count instead.
      }
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_BODY + 1);
      if (body.length > MAX_BODY) {
        throw tooLarge();
      }
      return body;
    }
  }

  private static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String[] parts = contentType.split(";");
    if (!parts[0].trim().toLowerCase(Locale.ROOT).equals(JSON)) {
      return false;
    }
    for (int i = 1; i < parts.length; i++) {
      String[] parameter = parts[i].split("=", 2);
      if (parameter[0].trim().equalsIgnoreCase("charset")
          && (parameter.length < 2
              || !parameter[1].trim().replace("\"", "").equalsIgnoreCase("utf-8"))) {
        return false;
      }
    }
    return true;
  }

  private static Problem tooLarge() {
    // The rest of the body is left unread, so the connection cannot carry another request.
    return Problem.of(
            413, "body-too-large", "Request body too large", "The body must be at most 64 KiB.")
        .withHeader("Connection", "close");
  }

  static void send(
      HttpExchange exchange,
      int status,
      String contentType,
      byte[] body,
      Map<String, String> headers)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
  }

  static void sendJson(HttpExchange exchange, int status, Object value) throws IOException {
    send(exchange, status, JSON, Json.write(value), Map.of());
  }

  static void sendProblem(HttpExchange exchange, Problem problem) throws IOException {
    send(exchange, problem.status, PROBLEM_JSON, problem.body(), problem.headers);
  }
}
