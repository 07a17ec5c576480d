package dev.once.psp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import tools.jackson.databind.JsonNode;

/**
 * A payment service provider simulator: charges and refunds with idempotency keys, decline rules
 * and injectable faults, in memory and, with a {@link PspSettings#journal()}, in a write-ahead
 * {@link Journal} that a restart replays, so that a {@code kill -9} forgets nothing answered. Runs
 * standalone ({@link #main}) or embedded ({@link #start}); see the module's README for the HTTP
 * API.
 */
public final class PspSimulator implements AutoCloseable {
  private static final String REFERENCES = "/v1/stats/references/";
  private static final int THREADS = 32;

  static {
    // The JDK server writes an answer's headers and body in two segments; with Nagle's algorithm
    // on, the body then waits for the client's delayed ACK (about 40 ms per answer on a kept-alive
    // connection). Read once per JVM by the JDK server, so it must be set before its first use.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final Counters counters = new Counters();
  private final Payments payments;
  private final Journal journal;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Faults faults;
  private volatile Consumer<String> afterApply = reference -> {};

  private PspSimulator(HttpServer server, ExecutorService executor, PspSettings settings) {
    this.server = server;
    this.executor = executor;
    this.faults = settings.faults();
    this.journal = settings.journal() == null ? Journal.NONE : new Journal(settings.journal());
    this.payments =
        new Payments(
            counters,
            new FaultPlan(settings.seed()),
            new Payments.Controls() {
              @Override
              public Faults faults() {
                return faults;
              }

              @Override
              public Consumer<String> afterApply() {
                return afterApply;
              }

              @Override
              public boolean pause(long millis) {
                return PspSimulator.this.pause(millis);
              }
            },
            journal);
  }

  /**
   * Binds {@code settings.host():settings.port()}, replays the journal if the settings name one,
   * starts serving and returns.
   *
   * @throws UncheckedIOException if the address cannot be bound or the journal cannot be read,
   *     truncated or opened
   * @throws IllegalStateException if a complete line of the journal cannot be replayed (the file is
   *     left as it was)
   */
  public static PspSimulator start(PspSettings settings) {
    Objects.requireNonNull(settings, "settings");
    HttpServer server;
    try {
      InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
      if (address.isUnresolved()) {
        throw new UnknownHostException("unknown host");
      }
      server = HttpServer.create(address, 128);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
    AtomicInteger threads = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            THREADS,
            task -> {
              Thread thread = new Thread(task, "psp-http-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    PspSimulator simulator = new PspSimulator(server, executor, settings);
    try {
      simulator.journal.open(simulator.payments::replay);
    } catch (RuntimeException e) {
      server.stop(0);
      executor.shutdownNow();
      throw e;
    }
    server.createContext("/", simulator::handle);
    server.setExecutor(executor);
    server.start();
    log()
        .info(
            "PSP simulator listening on "
                + simulator.baseUri()
                + " (port "
                + simulator.port()
                + "); "
                + settings.faults()
                + ", seed "
                + settings.seed()
                + (settings.journal() == null
                    ? ", no journal"
                    : ", journal " + settings.journal()));
    return simulator;
  }

  /** The bound port (the free port picked when the settings asked for port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://host:port}, with 127.0.0.1 when bound to the wildcard address. */
  public URI baseUri() {
    InetSocketAddress address = server.getAddress();
    String host =
        address.getAddress().isAnyLocalAddress()
            ? "127.0.0.1"
            : address.getAddress().getHostAddress();
    try {
      return new URI("http", null, host, address.getPort(), null, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  public Faults faults() {
    return faults;
  }

  /** Replaces the faults; requests that already drew theirs keep them. */
  public void faults(Faults faults) {
    this.faults = Objects.requireNonNull(faults, "faults");
    log().info("PSP simulator faults changed: " + faults);
  }

  public Stats stats() {
    return counters.snapshot();
  }

  public ReferenceStats stats(String reference) {
    return counters.reference(reference);
  }

  /**
   * Sets the hook called with the merchant reference on the request thread right after a charge or
   * refund is applied (counted in the stats), before its answer is stored for replay and before any
   * answer is written: meanwhile a request with the same key gets 409. A hook that throws is
   * logged; the answer is stored anyway.
   */
  public void afterApply(Consumer<String> hook) {
    this.afterApply = Objects.requireNonNull(hook, "hook");
  }

  /** Stops listening, wakes held (timed-out) requests and interrupts hooks; within about 1 s. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    journal.close();
  }

  /** The runnable jar's entry point; see {@link Cli#usage()}. Exits 2 on a bad setting. */
  public static void main(String[] args) {
    List<String> arguments = List.of(args);
    if (arguments.contains("--help") || arguments.contains("-h")) {
      System.out.println(Cli.usage());
      return;
    }
    PspSettings settings;
    try {
      settings = Cli.parse(arguments, System.getenv());
    } catch (Cli.UsageException e) {
      System.err.println("psp-simulator: " + e.getMessage());
      System.err.println(Cli.usage());
      System.exit(Cli.EXIT_USAGE);
      return;
    }
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty(
          "java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
    }
    PspSimulator simulator;
    try {
      simulator = start(settings);
    } catch (UncheckedIOException | Journal.CorruptException e) {
      System.err.println("psp-simulator: " + e.getMessage());
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(simulator::close, "psp-shutdown"));
    // The server's dispatcher thread keeps the JVM running until it is stopped.
  }

  private boolean pause(long millis) {
    if (millis <= 0) {
      return closing.getCount() > 0;
    }
    try {
      return !closing.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void handle(HttpExchange exchange) {
    try {
      route(exchange, exchange.getRequestURI().getRawPath(), exchange.getRequestMethod());
    } catch (Problem problem) {
      trySend(exchange, problem);
    } catch (IOException e) {
      log().log(Level.FINE, "Cannot read the request or write the answer", e);
    } catch (RuntimeException e) {
      log().log(Level.WARNING, "Unexpected failure", e);
      trySend(
          exchange,
          Problem.of(
              500, "internal-error", "Internal error", "The simulator failed unexpectedly."));
    } finally {
      // Without an answer sent, this closes the connection: how a lost answer looks.
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, String path, String method) throws IOException {
    switch (path) {
      case "/health" -> {
        allow(method, "GET");
        Http.sendJson(exchange, 200, Map.of("status", "UP"));
      }
      case "/v1/charges" -> {
        allow(method, "POST");
        post(exchange, payments::charge);
      }
      case "/v1/refunds" -> {
        allow(method, "POST");
        post(exchange, payments::refund);
      }
      case "/v1/stats" -> {
        allow(method, "GET");
        Http.sendJson(exchange, 200, statsJson(stats()));
      }
      case "/v1/faults" -> {
        allow(method, "GET", "PUT");
        if (method.equals("PUT")) {
          faults(parseFaults(Http.jsonBody(exchange)));
        }
        Http.sendJson(exchange, 200, faultsJson(faults));
      }
      default -> {
        String reference = referenceIn(path);
        allow(method, "GET");
        ReferenceStats stats = stats(reference);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("reference", stats.reference());
        body.put("requests", stats.requests());
        body.put("effects", stats.effects());
        body.put("status", stats.status());
        Http.sendJson(exchange, 200, body);
      }
    }
  }

  private interface PostHandler {
    Reply handle(HttpExchange exchange) throws IOException;
  }

  private void post(HttpExchange exchange, PostHandler handler) throws IOException {
    Reply reply;
    try {
      reply = handler.handle(exchange);
    } catch (Problem problem) {
      reply = Reply.of(problem);
    }
    if (reply == Reply.ABORT || !pause(faults.latencyMs())) {
      return;
    }
    reply.send(exchange);
  }

  private static String referenceIn(String path) {
    String raw = path.startsWith(REFERENCES) ? path.substring(REFERENCES.length()) : "";
    if (raw.isEmpty() || raw.contains("/")) {
      throw Problem.of(404, "not-found", "Not found", "No resource at " + path + ".");
    }
    try {
      return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw Problem.of(404, "not-found", "Not found", "Malformed percent-encoding in the path.");
    }
  }

  private static void allow(String method, String... allowed) {
    for (String candidate : allowed) {
      if (candidate.equals(method)) {
        return;
      }
    }
    String allow = String.join(", ", allowed);
    throw Problem.of(
            405,
            "method-not-allowed",
            "Method not allowed",
            method + " is not allowed here; use " + allow + ".")
        .withHeader("Allow", allow);
  }

  private static Faults parseFaults(byte[] body) {
    JsonNode json = Json.object(body);
    Json.onlyMembers(
        json,
        java.util.Set.of("latencyMs", "errorRate", "timeoutRate", "lostAnswerRate", "timeoutMs"));
    try {
      return new Faults(
          Json.integer(json, "latencyMs"),
          Json.number(json, "errorRate"),
          Json.number(json, "timeoutRate"),
          Json.number(json, "lostAnswerRate"),
          Json.integer(json, "timeoutMs"));
    } catch (InvalidFieldException e) {
      throw Problem.invalidRequest(e.field(), e.getMessage());
    }
  }

  static Map<String, Object> faultsJson(Faults faults) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("latencyMs", faults.latencyMs());
    body.put("errorRate", faults.errorRate());
    body.put("timeoutRate", faults.timeoutRate());
    body.put("lostAnswerRate", faults.lostAnswerRate());
    body.put("timeoutMs", faults.timeoutMs());
    return body;
  }

  private static Map<String, Object> statsJson(Stats stats) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requests", stats.requests());
    body.put("charges", outcomes(stats.chargesSucceeded(), stats.chargesDeclined()));
    body.put("refunds", outcomes(stats.refundsSucceeded(), stats.refundsDeclined()));
    body.put("effects", stats.effects());
    Map<String, Object> faults = new LinkedHashMap<>();
    faults.put("errors", stats.errors());
    faults.put("timeouts", stats.timeouts());
    faults.put("lostAnswers", stats.lostAnswers());
    body.put("faults", faults);
    return body;
  }

  private static Map<String, Object> outcomes(long succeeded, long declined) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("succeeded", succeeded);
    body.put("declined", declined);
    return body;
  }

  private static void trySend(HttpExchange exchange, Problem problem) {
    try {
      Http.sendProblem(exchange, problem);
    } catch (IOException | RuntimeException e) {
      log().log(Level.FINE, "Cannot write the problem", e);
    }
  }

  // Looked up when used rather than held in a static field, so that main can set the log format
  // before java.util.logging reads it.
  private static Logger log() {
    return Logger.getLogger(PspSimulator.class.getName());
  }
}
