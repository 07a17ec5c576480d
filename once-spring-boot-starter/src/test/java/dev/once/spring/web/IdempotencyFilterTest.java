package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The HTTP idempotency contract, end to end through a real server and a real database. */
@SpringBootTest(
    classes = FilterTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class IdempotencyFilterTest {
  /** Real threads for concurrent requests (the common pool has one thread on two cores). */
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired MeterRegistry meters;
  @Autowired FilterTestApplication.SecondPool secondPool;

  private double outcomes(String outcome) {
    return meters.counter("once.idempotency.requests", "outcome", outcome).count();
  }

  private final String client = "client-" + UUID.randomUUID();

  private HttpRequest.Builder post(String path, String key, String body) {
    return FilterRequests.post(port, client, path, key, body);
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    return FilterRequests.send(request);
  }

  private long effects(String tag) {
    return FilterRequests.effects(jdbc, tag);
  }

  private long storedKeys(String key) {
    return FilterRequests.storedKeys(jdbc, client, key);
  }

  private static void assertProblem(HttpResponse<String> r, int status, String slug) {
    FilterRequests.assertProblem(r, status, slug);
  }

  /**
   * Sends a request whose handler writes, then waits inside the open transaction until released.
   */
  private CompletableFuture<HttpResponse<String>> startAndHoldInHandler(String tag, String key)
      throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    FilterTestApplication.ENTERED.put(tag, entered);
    FilterTestApplication.RELEASE.put(tag, new CountDownLatch(1));
    CompletableFuture<HttpResponse<String>> request =
        CompletableFuture.supplyAsync(() -> send(post("/api/effects/" + tag, key, "{}")), THREADS);
    entered.await();
    return request;
  }

  private static String tag() {
    return "t" + UUID.randomUUID().toString().replace("-", "");
  }

  @Test
  void newKeyExecutesAndRetryReplaysStatusBodyAndHeaders() {
    String tag = tag();
    HttpResponse<String> first = send(post("/api/effects/" + tag, "k-1", "{\"a\":1,\"b\":[1,2]}"));
    HttpResponse<String> retry =
        send(post("/api/effects/" + tag, "k-1", "{ \"b\" : [1.0, 2], \"a\" : 1 }"));

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.headers().firstValue("Location"))
        .isEqualTo(first.headers().firstValue("Location"));
    assertThat(retry.headers().firstValue("Content-Type"))
        .isEqualTo(first.headers().firstValue("Content-Type"));
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.headers().firstValue("X-Not-Replayed")).isEmpty();
    assertThat(effects(tag)).isEqualTo(1);
  }

  @Test
  void outcomesAreCountedInMicrometer() {
    String tag = tag();
    double executed = outcomes("executed");
    double replayed = outcomes("replayed");
    double reused = outcomes("key_reused");
    double rejected = outcomes("rejected");

    send(post("/api/effects/" + tag, "k-m", "{}"));
    send(post("/api/effects/" + tag, "k-m", "{}"));
    send(post("/api/effects/" + tag, "k-m", "{\"other\":1}"));
    send(post("/api/effects/" + tag, null, "{}"));

    assertThat(outcomes("executed") - executed).isEqualTo(1);
    assertThat(outcomes("replayed") - replayed).isEqualTo(1);
    assertThat(outcomes("key_reused") - reused).isEqualTo(1);
    assertThat(outcomes("rejected") - rejected).isEqualTo(1);
  }

  @Test
  void sameKeyDifferentBodyIs422AndExecutesNothing() {
    String tag = tag();
    send(post("/api/effects/" + tag, "k-2", "{\"amount\":\"1.00\"}"));
    HttpResponse<String> reused = send(post("/api/effects/" + tag, "k-2", "{\"amount\":\"2.00\"}"));

    assertProblem(reused, 422, "idempotency-key-reused");
    assertThat(effects(tag)).isEqualTo(1);
  }

  /**
   * Issue 5, item 4: these amounts round to one double, so an RFC 8785 fingerprint replayed the
   * first answer to the second request. Exact numbers refuse it; a respelling of the same value is
   * still a retry, and a number beyond the double range is a value like any other.
   */
  @Test
  void amountsThatRoundToOneDoubleAreDifferentRequests() {
    String tag = tag();
    String first = "{\"currency\":\"EUR\",\"n\":9007199254740993}";
    assertThat(send(post("/api/effects/" + tag, "k-n1", first)).statusCode()).isEqualTo(201);

    HttpResponse<String> other =
        send(post("/api/effects/" + tag, "k-n1", "{\"currency\":\"EUR\",\"n\":9007199254740992}"));
    HttpResponse<String> respelt =
        send(
            post(
                "/api/effects/" + tag,
                "k-n1",
                "{\"n\":90071992547409930e-1,\"currency\":\"EUR\"}"));

    assertProblem(other, 422, "idempotency-key-reused");
    assertThat(respelt.statusCode()).isEqualTo(201);
    assertThat(respelt.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isEqualTo(1);

    assertThat(send(post("/api/effects/" + tag, "k-n2", "{\"n\":1e-400}")).statusCode())
        .isEqualTo(201);
    assertProblem(
        send(post("/api/effects/" + tag, "k-n2", "{\"n\":0}")), 422, "idempotency-key-reused");
    assertThat(effects(tag)).isEqualTo(2);
  }

  @Test
  void sameKeyOnAnotherPathIs422() {
    String tag = tag();
    send(post("/api/effects/" + tag, "k-path", "{}"));
    HttpResponse<String> reused = send(post("/api/effects/" + tag + "x", "k-path", "{}"));
    assertProblem(reused, 422, "idempotency-key-reused");
  }

  @Test
  void duplicateWhileFirstRunsIs409WithRetryAfterAndFirstStillCompletes() throws Exception {
    String tag = tag();
    CompletableFuture<HttpResponse<String>> first = startAndHoldInHandler(tag, "k-3");

    HttpResponse<String> duplicate = send(post("/api/effects/" + tag, "k-3", "{}"));
    FilterTestApplication.RELEASE.get(tag).countDown();

    assertProblem(duplicate, 409, "idempotency-key-in-use");
    assertThat(duplicate.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(first.get().statusCode()).isEqualTo(201);
    assertThat(effects(tag)).isEqualTo(1);
  }

  /**
   * Sends {@code request} twice; both must be answered {@code status} (as the problem {@code slug},
   * unless null) afresh, nothing stored.
   */
  private void assertAnsweredAfreshEachTime(
      HttpRequest.Builder request, int status, String slug, String key) {
    HttpResponse<String> first = send(request);
    HttpResponse<String> retry = send(request);

    assertThat(first.statusCode()).isEqualTo(status);
    assertThat(retry.statusCode()).isEqualTo(status);
    if (slug != null) {
      assertProblem(first, status, slug);
      assertProblem(retry, status, slug);
    }
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(storedKeys(key)).isZero();
  }

  /**
   * An answer that is not stored rolls back what the handler wrote, and the same request sent again
   * is answered afresh.
   */
  @ParameterizedTest(name = "{0} answers {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // the handler threw
        "/api/fail/ | {} | application/json | 500 | -",
        // it answered a server error
        "/api/server-error/ | {} | application/json | 503 | -",
        // it answered a client error that is not storable
        "/api/too-many/ | {} | application/json | 429 | -",
        // it answered through sendError
        "/api/send-error/ | {} | application/json | 404 | -",
        // no handler is mapped to the path
        "/api/nowhere/ | {} | application/json | 404 | -",
        // an async handler is refused
        "/api/async/ | {} | application/json | 500 | -",
        // a success answer of a transaction marked rollback-only becomes a 500
        "/api/rollback-only/ | {} | application/json | 500 | internal-error",
        // a body consumed before the filter is refused instead of fingerprinted as empty
        "/api/consumed/ | amount=10.00 | application/x-www-form-urlencoded | 500 | internal-error",
        // an empty JSON body is malformed
        "/api/effects/ | '' | application/json | 400 | malformed-json"
      })
  void answerThatIsNotStoredRollsBackAndIsGivenAfresh(
      String path, String body, String contentType, int status, String slug) {
    String tag = tag();
    String key = "k-" + tag;

    assertAnsweredAfreshEachTime(
        post(path + tag, key, body).setHeader("Content-Type", contentType), status, slug, key);
    assertThat(effects(tag)).isZero();
  }

  /**
   * Spring MVC refuses these before the handler method runs (a path variable that is not a number,
   * a missing parameter, a body that does not bind); the key stays free, so the corrected request,
   * sent with the same key, executes.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/x?currency=EUR | {\"amount\":1}",
        "/1 | {\"amount\":1}",
        "/1?currency=EUR | {\"amount\":\"ten\"}"
      })
  void refusalOfSpringMvcBeforeTheHandlerRanIsNotStored(String pathEnd, String body) {
    String tag = tag();
    String path = "/api/typed/" + tag;
    String key = "k-" + tag;

    assertAnsweredAfreshEachTime(post(path + pathEnd, key, body), 400, null, key);
    assertThat(effects(tag)).isZero();

    HttpResponse<String> corrected = send(post(path + "/1?currency=EUR", key, "{\"amount\":10}"));
    assertThat(corrected.statusCode()).isEqualTo(201);
    assertThat(effects(tag)).isEqualTo(1);
  }

  /**
   * An answer the handler gave is stored and replayed: a refusal, however it is rendered, without
   * its writes; a redirect after the effect with them, held until the commit.
   */
  @ParameterizedTest(name = "{0} answers {1}")
  @CsvSource(
      nullValues = "-",
      value = {
        "/api/reject/, 422, 0, -", // a refusal returned by a controller method
        "/api/refuse/, 422, 0, -", // raised by it, answered by the application's advice
        "/api/checked/, 422, 0, -", // raised by the application's argument resolver first
        "/api/not-found/, 404, 0, -", // a ResponseStatusException it raised, rendered by Spring
        "/api/routed/, 422, 0, -", // returned by a router function
        "/api/see-other/, 303, 1, /api/effects/", // a redirect returned by a controller method
        "/api/redirect/, 302, 1, /api/effects/" // given through sendRedirect
      })
  void answerOfTheHandlerIsStoredAndReplayed(
      String path, int status, int writes, String redirectedTo) {
    String tag = tag();
    String key = "k-" + tag;
    HttpResponse<String> first = send(post(path + tag, key, "{}"));
    HttpResponse<String> retry = send(post(path + tag, key, "{}"));

    assertThat(first.statusCode()).isEqualTo(status);
    assertThat(retry.statusCode()).isEqualTo(status);
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.headers().firstValue("Location"))
        .isEqualTo(first.headers().firstValue("Location"));
    if (redirectedTo != null) {
      assertThat(first.headers().firstValue("Location"))
          .hasValueSatisfying(l -> assertThat(l).endsWith(redirectedTo + tag));
    }
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isEqualTo(writes);
    assertThat(storedKeys(key)).isEqualTo(1);
  }

  @Test
  void keyErrorsAre400AndNothingExecutes() {
    String tag = tag();
    assertProblem(send(post("/api/effects/" + tag, null, "{}")), 400, "idempotency-key-missing");
    assertProblem(send(post("/api/effects/" + tag, "", "{}")), 400, "idempotency-key-invalid");
    assertProblem(
        send(post("/api/effects/" + tag, "k".repeat(256), "{}")), 400, "idempotency-key-invalid");
    assertProblem(send(post("/api/effects/" + tag, "a b", "{}")), 400, "idempotency-key-invalid");
    assertProblem(
        send(post("/api/effects/" + tag, "\"unterminated", "{}")), 400, "idempotency-key-invalid");
    assertProblem(
        send(post("/api/effects/" + tag, "k-8", "{}").header("Idempotency-Key", "k-8")),
        400,
        "idempotency-key-invalid");
    assertThat(effects(tag)).isZero();
  }

  @Test
  void quotedKeyIsTheSameKeyAsItsBareForm() {
    String tag = tag();
    send(post("/api/effects/" + tag, "\"k-9\"", "{}"));
    HttpResponse<String> bare = send(post("/api/effects/" + tag, "k-9", "{}"));
    assertThat(bare.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isEqualTo(1);
    assertThat(send(post("/api/effects/" + tag, "k".repeat(255), "{}")).statusCode())
        .isEqualTo(201);
  }

  @Test
  void unauthenticatedRequestIs401BeforeAnyLookup() {
    String tag = tag();
    HttpRequest.Builder anonymous =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/effects/" + tag))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", "k-10")
            .POST(HttpRequest.BodyPublishers.ofString("{}"));
    assertProblem(send(anonymous), 401, "unauthorized");
    assertThat(effects(tag)).isZero();
  }

  @Test
  void clientsWithTheSameKeyAreIndependent() {
    String tag = tag();
    HttpResponse<String> mine = send(post("/api/effects/" + tag, "shared-key", "{}"));
    HttpResponse<String> theirs =
        send(
            post("/api/effects/" + tag, "shared-key", "{}")
                .setHeader("X-Client", "other-" + client));
    assertThat(theirs.statusCode()).isEqualTo(201);
    assertThat(theirs.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(theirs.body()).isNotEqualTo(mine.body());
    assertThat(effects(tag)).isEqualTo(2);
  }

  @Test
  void badBodiesAreRejectedBeforeAnythingExecutes() {
    String tag = tag();
    assertProblem(send(post("/api/effects/" + tag, "k-11", "{\"a\":")), 400, "malformed-json");
    assertProblem(
        send(post("/api/effects/" + tag, "k-12", "{\"a\":1,\"a\":2}")), 400, "malformed-json");
    String deep = "[".repeat(65) + "]".repeat(65);
    assertProblem(send(post("/api/effects/" + tag, "k-13", deep)), 400, "json-too-deep");
    String ok = "[".repeat(64) + "]".repeat(64);
    assertThat(send(post("/api/effects/" + tag, "k-14", ok)).statusCode()).isEqualTo(201);
    String big = "{\"a\":\"" + "x".repeat(1024 * 1024) + "\"}";
    assertProblem(send(post("/api/effects/" + tag, "k-15", big)), 413, "payload-too-large");
    assertThat(effects(tag)).isEqualTo(1);
    assertThat(storedKeys("k-11") + storedKeys("k-13") + storedKeys("k-15")).isZero();
  }

  @Test
  void formBodyParametersReachTheHandlerAfterTheFilterReadTheBody() {
    String tag = tag();
    HttpRequest.Builder form =
        post("/api/form/" + tag + "?q=from-query", "k-form", "amount=12.50&bad=%zz")
            .setHeader("Content-Type", "application/x-www-form-urlencoded");

    HttpResponse<String> first = send(form);
    HttpResponse<String> retry = send(form);

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.body()).isEqualTo("{\"amount\":\"12.50\",\"q\":\"from-query\"}");
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isEqualTo(1);
  }

  @Test
  void synchronizationsOfTheHandlerCompleteAsCommittedWithACommittedAnswer() {
    String tag = tag();

    HttpResponse<String> created =
        send(post("/api/synchronized/" + tag + "?status=201", "k-sync1", "{}"));

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(FilterTestApplication.CALLBACKS.get(tag))
        .containsExactly(
            "beforeCommit", "beforeCompletion", "afterCommit", "afterCompletion(committed)");
    assertThat(secondPool.activeConnections()).isZero();
    assertThat(effects(tag)).isEqualTo(1);
  }

  /**
   * Another request's answer committed in the instant between this claim's read and its lock (the
   * claim saw no key, then got the lock): this execution must leave no trace, and the client gets
   * that answer, as a retry would. Covers the success path and the refusal path.
   */
  @ParameterizedTest
  @ValueSource(ints = {201, 422})
  void anAnswerCommittedAfterTheClaimReadTheKeyWinsAndThisExecutionLeavesNoTrace(int status) {
    String tag = tag();
    String key = "k-raced-" + status;

    HttpResponse<String> answer =
        send(post("/api/raced/" + tag + "?status=" + status, key, "{\"a\":1}"));

    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(answer.body()).isEqualTo("{\"winner\":true}");
    assertThat(answer.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(answer.headers().firstValue("Location")).isEmpty();
    assertThat(effects(tag)).isZero();
    assertThat(effects(tag + "-before-commit")).isZero();
    assertThat(storedKeys(key)).isEqualTo(1);
  }

  /**
   * The answer is stored and committed in one round trip after every other {@code beforeCommit}
   * callback ran: a write the handler left for the end of the transaction commits with it.
   */
  @Test
  void aWriteTheHandlerLeavesForBeforeCommitCommitsWithTheAnswer() {
    String tag = tag();

    HttpResponse<String> first =
        send(post("/api/raced/" + tag + "?status=201&raced=false", "k-before-commit", "{}"));
    HttpResponse<String> retry =
        send(post("/api/raced/" + tag + "?status=201&raced=false", "k-before-commit", "{}"));

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(effects(tag)).isEqualTo(1);
    assertThat(effects(tag + "-before-commit")).isEqualTo(1);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.body()).isEqualTo("{\"alone\":true}");
  }

  /**
   * A {@code beforeCommit} callback of the handler that fails runs before the answer is stored and
   * committed, so nothing commits: had the answer been committed first, the failure would come too
   * late to undo the payment.
   */
  @Test
  void aFailingBeforeCommitCallbackOfTheHandlerCommitsNothing() {
    String tag = tag();

    HttpResponse<String> answer =
        send(
            post(
                "/api/raced/" + tag + "?status=201&raced=false&failBeforeCommit=true",
                "k-flush-fails",
                "{}"));

    assertProblem(answer, 503, "service-unavailable");
    assertThat(effects(tag)).isZero();
    assertThat(effects(tag + "-before-commit")).isZero();
    assertThat(storedKeys("k-flush-fails")).isZero();
  }

  /**
   * A stored refusal keeps none of the handler's writes: its transaction rolls back as a whole (no
   * savepoint is taken), so the handler's synchronizations complete as rolled back. Nothing runs as
   * if its writes had committed (no beforeCommit, no afterCommit), but what they hold is released,
   * here a connection of another pool; the answer is stored by a transaction of its own.
   */
  @Test
  void synchronizationsOfTheHandlerCompleteAsRolledBackWithAStoredRefusal() {
    String tag = tag();

    HttpResponse<String> refused =
        send(post("/api/synchronized/" + tag + "?status=422", "k-sync2", "{}"));
    HttpResponse<String> retry =
        send(post("/api/synchronized/" + tag + "?status=422", "k-sync2", "{}"));

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(secondPool.activeConnections()).isZero();
    assertThat(FilterTestApplication.CALLBACKS.get(tag))
        .containsExactly("beforeCompletion", "afterCompletion(rolled back)");
    assertThat(effects(tag)).isZero();
    assertThat(storedKeys("k-sync2")).isEqualTo(1);
    assertThat(retry.statusCode()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
  }

  @Test
  void unusableClientIdIsAProblemNotAContainerError() {
    String tag = tag();
    HttpResponse<String> r =
        send(post("/api/effects/" + tag, "k-cid", "{}").setHeader("X-Client", "c".repeat(300)));
    assertProblem(r, 500, "internal-error");
    assertThat(effects(tag)).isZero();
  }

  @Test
  void malformedJsonIsNotStoredSoAFixedRetryExecutes() {
    String tag = tag();
    assertProblem(send(post("/api/effects/" + tag, "k-16", "{oops")), 400, "malformed-json");
    assertThat(send(post("/api/effects/" + tag, "k-16", "{}")).statusCode()).isEqualTo(201);
  }

  @Test
  void terminatedDatabaseSessionCommitsNothingAndTheRetryExecutesOnce() throws Exception {
    String tag = tag();
    CompletableFuture<HttpResponse<String>> first = startAndHoldInHandler(tag, "k-17");

    boolean terminated =
        jdbc.sql("SELECT pg_terminate_backend(?)")
            .param(FilterTestApplication.BACKEND_PID.get(tag))
            .query(Boolean.class)
            .single();
    FilterTestApplication.RELEASE.get(tag).countDown();

    assertThat(terminated).isTrue();
    assertProblem(first.get(), 503, "service-unavailable");
    assertThat(effects(tag)).isZero();
    assertThat(storedKeys("k-17")).isZero();

    FilterTestApplication.ENTERED.remove(tag);
    HttpResponse<String> retry = send(post("/api/effects/" + tag, "k-17", "{}"));
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(effects(tag)).isEqualTo(1);
  }

  @Test
  void requestsOutsideTheConfiguredEndpointsPassThrough() {
    String tag = tag();
    HttpResponse<String> get =
        send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/effects/" + tag))
                .header("X-Client", client)
                .GET());
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body()).isEqualTo("0");
  }

  @Test
  void concurrentRequestsWithOneKeyExecuteOnce() throws Exception {
    String tag = tag();
    int threads = 16;
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      all.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
                return send(post("/api/effects/" + tag, "k-18", "{}"));
              },
              THREADS));
    }
    go.countDown();
    String createdBody = null;
    for (CompletableFuture<HttpResponse<String>> f : all) {
      HttpResponse<String> r = f.get();
      assertThat(r.statusCode()).isIn(201, 409);
      if (r.statusCode() == 201) {
        if (createdBody == null) {
          createdBody = r.body();
        }
        assertThat(r.body()).isEqualTo(createdBody);
      }
    }
    assertThat(effects(tag)).isEqualTo(1);
  }
}
