package dev.once.psp;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;

/** What to write for a POST, or {@link #ABORT}: close the connection without an answer. */
record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {

  static final Reply ABORT = new Reply(0, "", new byte[0], Map.of());

  static Reply of(Answer answer, Map<String, String> headers) {
    return new Reply(answer.status(), Http.JSON, answer.body(), headers);
  }

  static Reply of(Problem problem) {
    return new Reply(problem.status, Http.PROBLEM_JSON, problem.body(), problem.headers);
  }

  void send(HttpExchange exchange) throws IOException {
    Http.send(exchange, status, contentType, body, headers);
  }
}
