package dev.once.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JDK HTTP server that answers each request with the next scripted answer, and records what it
 * received: the exact status and header sequences a test needs, with a real HTTP exchange.
 */
final class ScriptedServer implements AutoCloseable {
  /** One scripted answer; {@code hang} holds the request until the server closes. */
  record Answer(int status, Map<String, String> headers, String body, boolean hang) {}

  /** What one request carried. */
  record Received(String method, String key, String body, Map<String, List<String>> headers) {}

  private final HttpServer server;
  private final BlockingQueue<Answer> script = new LinkedBlockingQueue<>();
  final List<Received> received = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);

  ScriptedServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
  }

  static Answer answer(int status, String... headerPairs) {
    return withBody(status, "{}", headerPairs);
  }

  static Answer withBody(int status, String body, String... headerPairs) {
    Map<String, String> h = new java.util.LinkedHashMap<>();
    for (int i = 0; i < headerPairs.length; i += 2) {
      h.put(headerPairs[i], headerPairs[i + 1]);
    }
    return new Answer(status, h, body, false);
  }

  static Answer problem(int status, String slug, String... headerPairs) {
    String[] h = new String[headerPairs.length + 2];
    h[0] = "Content-Type";
    h[1] = "application/problem+json";
    System.arraycopy(headerPairs, 0, h, 2, headerPairs.length);
    return withBody(
        status,
        "{\"type\":\"https://example.test/problems/"
            + slug
            + "\",\"title\":\"t\",\"status\":"
            + status
            + ",\"detail\":\"SECRET-BODY\"}",
        h);
  }

  static Answer hang() {
    return new Answer(0, Map.of(), "", true);
  }

  ScriptedServer then(Answer... answers) {
    script.addAll(List.of(answers));
    return this;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  List<String> keys() {
    return received.stream().map(Received::key).toList();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      received.add(
          new Received(
              ex.getRequestMethod(),
              ex.getRequestHeaders().getFirst("Idempotency-Key"),
              body,
              Map.copyOf(ex.getRequestHeaders())));
      Answer a = script.poll();
      if (a == null) {
        a = answer(599);
      }
      if (a.hang()) {
        closing.await(30, TimeUnit.SECONDS);
        return;
      }
      a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
      byte[] bytes = a.body().getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(a.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        ex.getResponseBody().write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
  }
}
