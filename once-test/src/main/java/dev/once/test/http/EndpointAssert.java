package dev.once.test.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.once.test.effect.Effect;
import dev.once.test.faults.OnceTestFaults;
import dev.once.test.internal.Probe;
import dev.once.test.internal.Violations;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Proves that one endpoint keeps Once's HTTP idempotency contract, by sending it requests through a
 * {@link HttpTarget} and reading the test's {@link Effect} probe before and after each. Every check
 * uses a fresh {@code Idempotency-Key} ({@code once-test-<uuid>}) and, with {@link #withRequests},
 * a fresh request:
 *
 * <ol>
 *   <li>{@code [first-call-executes]} a new key executes: not 5xx, not a replay, and the effect
 *       moves (by d, "one effect", against which every later check is measured);
 *   <li>{@code [retry-replays]} the retry with the same key gets the same status, body, {@code
 *       Content-Type} and {@code Location} with {@code Idempotent-Replayed: true}; {@code
 *       [retry-no-second-effect]} and the effect does not move;
 *   <li>{@code [other-body-422]} the same key with another body is answered 422 with Once's problem
 *       {@code idempotency-key-reused} (not a replay, and not a 422 of the application's own) and
 *       moves nothing;
 *   <li>{@code [concurrent-no-5xx]} n requests with one new key, started together by a latch, get
 *       no 5xx; {@code [concurrent-one-effect]} exactly one executes, the others are replays of its
 *       answer or 409, and the effect moves by d; {@code [concurrent-409-in-use]} each 409 is
 *       Once's problem {@code idempotency-key-in-use} with {@code Retry-After} (a client must learn
 *       that the first request is still running and when to ask again, not that it conflicts with
 *       something);
 *   <li>{@code [missing-key-400]} a request without the key is answered 400 and moves nothing;
 *   <li>{@code [failure-leaves-no-effect]} a request whose handler fails after its work ({@link
 *       OnceTestFaults#FAIL_AFTER_HANDLER}) leaves no effect, and {@code [failure-leaves-key-free]}
 *       its retry with the same key executes anew;
 *   <li>{@code [lost-answer-replayed]} a request whose answer is lost after its commit ({@link
 *       OnceTestFaults#FAIL_AFTER_COMMIT}) moved the effect by d, and its retry is a replay that
 *       moves nothing.
 * </ol>
 *
 * The last two need the fault hooks ({@link OnceTestFaults} in a Spring application); without them
 * each reports {@code [failure-hook-missing]}, unless turned off ({@link #withoutFailureCheck()},
 * {@link #withoutLostAnswerCheck()}). All checks run, then the assertion fails once, with an {@link
 * AssertionError} that lists every violation on a line of its own, starting with its name in
 * brackets. A first call that does not move the effect ends the assertion at once: nothing else can
 * be judged. When no answer at all came from Once (no replay, no 400 for the missing key), a last
 * line, {@code hint:}, names the usual cause: the endpoint is not marked {@code @Idempotent}, or
 * the request does not pass Once's filter.
 *
 * <p>The kit assumes that nothing but its own requests moves the probe while it runs. Messages show
 * statuses and bodies (cut to 200 characters), never request headers.
 */
public final class EndpointAssert {
  /** The request header that carries the key. */
  public static final String KEY_HEADER = "Idempotency-Key";

  /** The response header that marks a replayed answer. */
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";

  /** The slug of Once's problem for a key sent again with another request. */
  static final String KEY_REUSED = "idempotency-key-reused";

  /** The slug of Once's problem for a key whose first request is still running. */
  static final String KEY_IN_USE = "idempotency-key-in-use";

  /** The header of a 409 that says when to ask again. */
  static final String RETRY_AFTER = "Retry-After";

  private static final long WAIT_SECONDS = 60;

  private final HttpTarget target;
  private Supplier<TestRequest> requests;
  private TestRequest otherBody;
  private int concurrency = 8;
  private boolean failureCheck = true;
  private boolean lostAnswerCheck = true;

  private EndpointAssert(HttpTarget target) {
    this.target = target;
  }

  /** An assertion on the endpoint behind {@code target}; see {@code OnceAssertions}. */
  public static EndpointAssert of(HttpTarget target) {
    return new EndpointAssert(Objects.requireNonNull(target, "target must not be null"));
  }

  /** Sends {@code request} (with a fresh key) in every check. */
  public EndpointAssert withRequest(TestRequest request) {
    Objects.requireNonNull(request, "request must not be null");
    return withRequests(() -> request);
  }

  /**
   * Sends a fresh request of {@code requests} in every check: for an endpoint whose effect can
   * happen once per business object (pay order 1, pay order 2...).
   */
  public EndpointAssert withRequests(Supplier<TestRequest> requests) {
    this.requests = Objects.requireNonNull(requests, "requests must not be null");
    return this;
  }

  /**
   * The request whose body differs from the first check's, for {@code [other-body-422]}; by default
   * the first request with a member {@code "onceTestOtherBody"} added to its JSON object (other
   * JSON is wrapped in such an object; other media types get one more byte).
   */
  public EndpointAssert withOtherBody(TestRequest other) {
    this.otherBody = Objects.requireNonNull(other, "other must not be null");
    return this;
  }

  /** How many requests race with one key in the concurrent check: 2 to 64, 8 by default. */
  public EndpointAssert concurrency(int n) {
    if (n < 2 || n > 64) {
      throw new IllegalArgumentException("concurrency must be between 2 and 64, was " + n);
    }
    this.concurrency = n;
    return this;
  }

  /** Skips the failing-handler check (when the application has no fault hook). */
  public EndpointAssert withoutFailureCheck() {
    this.failureCheck = false;
    return this;
  }

  /** Skips the lost-answer check (when the application has no fault hook). */
  public EndpointAssert withoutLostAnswerCheck() {
    this.lostAnswerCheck = false;
    return this;
  }

  /**
   * Runs every check, reading {@code effect} before and after each request.
   *
   * @throws AssertionError listing every violation, when there is one
   * @throws IllegalStateException when no request was given
   */
  public void isIdempotent(Effect effect) {
    Objects.requireNonNull(effect, "effect must not be null");
    if (requests == null) {
      throw new IllegalStateException(
          "no request to send: call withRequest(...) or withRequests(...) before isIdempotent");
    }
    new Run(effect).check();
  }

  /**
   * {@code request} with another body: a member added to a JSON object, other JSON wrapped in an
   * object, other bytes one byte longer, no body a JSON object.
   */
  static TestRequest otherBodyOf(TestRequest request) {
    String member = "\"onceTestOtherBody\":\"" + UUID.randomUUID() + "\"";
    byte[] body = request.body();
    if (body.length == 0) {
      return request.json("{" + member + "}");
    }
    String type = request.contentType();
    if (type != null && type.toLowerCase(Locale.ROOT).contains("json")) {
      String text = new String(body, UTF_8).strip();
      String other;
      if (text.startsWith("{") && text.endsWith("}")) {
        String members = text.substring(1, text.length() - 1).strip();
        other = "{" + member + (members.isEmpty() ? "" : "," + members) + "}";
      } else {
        other = "{\"onceTestOtherBody\":" + text + "}";
      }
      return request.withBody(other.getBytes(UTF_8));
    }
    byte[] longer = Arrays.copyOf(body, body.length + 1);
    longer[body.length] = ' ';
    return request.withBody(longer);
  }

  /** An answer and how far its request moved the effect. */
  private record Measured(TestResponse response, BigDecimal delta) {
    int status() {
      return response.status();
    }

    boolean moved() {
      return delta.signum() != 0;
    }
  }

  /** One run of {@link #isIdempotent}: its violations and the effect of one execution. */
  private final class Run {
    private final Probe probe;
    private Violations violations;
    private String endpoint = "";
    private BigDecimal one;
    private volatile boolean onceAnswered; // written by the concurrent check's threads too

    Run(Effect effect) {
      this.probe = new Probe(effect::read);
    }

    void check() {
      TestRequest first = next();
      endpoint = first.method() + " " + first.path();
      violations = new Violations("Endpoint " + endpoint + " is not idempotent");
      String key = newKey();
      TestRequest keyed = first.withHeader(KEY_HEADER, key);
      Measured executed = measure(keyed);
      if (firstCallExecutes(executed)) {
        one = executed.delta();
        retry(keyed, executed.response());
        otherBody(first, key);
        concurrent();
        missingKey();
        if (failureCheck) {
          failingHandler();
        }
        if (lostAnswerCheck) {
          lostAnswer();
        }
        if (!onceAnswered && !violations.isEmpty()) {
          violations.hint(
              "no answer came from Once (no replay, no 400 for the missing key): is the handler"
                  + " marked @Idempotent, and does the request pass Once's filter (MockMvc: built"
                  + " with the application's filters, as @AutoConfigureMockMvc builds it)?");
        }
      }
      violations.throwIfAny();
    }

    private boolean firstCallExecutes(Measured executed) {
      TestResponse response = executed.response();
      if (response.status() >= 500) {
        violation(
            "first-call-executes",
            "the first call with a new key failed ("
                + response
                + "; the application's log says why); nothing else can be judged");
      } else if (replayed(response)) {
        violation(
            "first-call-executes",
            "the first call with a new key was answered as a replay (" + response + ")");
      }
      if (!executed.moved()) {
        violation(
            "first-call-executes",
            "the first call with a new key did not move the effect ("
                + response
                + "): the probe does not see the endpoint's effect, so nothing else can be"
                + " judged");
      }
      return response.status() < 500 && executed.moved();
    }

    private void retry(TestRequest keyed, TestResponse executed) {
      Measured retry = measure(keyed);
      List<String> differences = differences(executed, retry.response());
      if (!replayed(retry.response())) {
        differences.add("no " + REPLAYED_HEADER + ": true");
      }
      if (!differences.isEmpty()) {
        violation(
            "retry-replays",
            "a retry with the same key was not a replay of the first answer: "
                + String.join("; ", differences));
      }
      if (retry.moved()) {
        violation(
            "retry-no-second-effect",
            "a retry with the same key applied the effect again (effect moved by "
                + retry.delta()
                + ", one execution moves it by "
                + one
                + ")");
      }
    }

    private void otherBody(TestRequest first, String key) {
      TestRequest other = otherBody != null ? otherBody : otherBodyOf(first);
      Measured reused = measure(other.withHeader(KEY_HEADER, key));
      if (reused.status() == 422 && reused.response().bodyText().contains(KEY_REUSED)) {
        onceAnswered = true;
      }
      if (reused.status() != 422) {
        violation(
            "other-body-422",
            "the same key with another body was answered "
                + reused.response()
                + " instead of 422 "
                + KEY_REUSED);
      } else if (replayed(reused.response())
          || !reused.response().bodyText().contains(KEY_REUSED)) {
        violation(
            "other-body-422",
            "the same key with another body was answered "
                + describe(reused.response())
                + ": a 422, but not the problem "
                + KEY_REUSED
                + ", so nothing shows that the key's fingerprint was compared (the application's"
                + " own refusal of the other body, or a state that refuses a second execution,"
                + " answers 422 too); give withOtherBody(...) a body the endpoint would execute");
      }
      if (reused.moved()) {
        violation(
            "other-body-422",
            "the same key with another body moved the effect by "
                + reused.delta()
                + " (expected 0: nothing may execute)");
      }
    }

    private void concurrent() {
      TestRequest request = next().withHeader(KEY_HEADER, newKey());
      BigDecimal before = read();
      List<TestResponse> answers = race(request);
      BigDecimal delta = read().subtract(before);
      int n = answers.size();
      long failed = answers.stream().filter(a -> a.status() >= 500).count();
      if (failed > 0) {
        violation(
            "concurrent-no-5xx",
            failed
                + " of "
                + n
                + " concurrent requests with the same key were answered 5xx (statuses: "
                + statuses(answers)
                + "); a duplicate must get the answer or 409");
      }
      List<TestResponse> executed =
          answers.stream()
              .filter(a -> a.status() < 500 && a.status() != 409 && !replayed(a))
              .toList();
      if (executed.size() > 1) {
        violation(
            "concurrent-one-effect",
            executed.size()
                + " of "
                + n
                + " concurrent requests with the same key executed (answered neither as a"
                + " replay nor 409; statuses: "
                + statuses(answers)
                + "); one may");
      } else if (executed.size() == 1) {
        for (TestResponse replay : answers.stream().filter(EndpointAssert::replayed).toList()) {
          List<String> differences = differences(executed.get(0), replay);
          if (!differences.isEmpty()) {
            violation(
                "concurrent-one-effect",
                "a concurrent duplicate was replayed with another answer than the executed one: "
                    + String.join("; ", differences));
            break;
          }
        }
      }
      answers.stream()
          .filter(a -> a.status() == 409)
          .filter(a -> !a.bodyText().contains(KEY_IN_USE) || a.header(RETRY_AFTER) == null)
          .findFirst()
          .ifPresent(
              a ->
                  violation(
                      "concurrent-409-in-use",
                      "a concurrent duplicate was answered "
                          + a
                          + (a.header(RETRY_AFTER) == null ? " without " + RETRY_AFTER : "")
                          + ", not Once's 409 "
                          + KEY_IN_USE
                          + " with "
                          + RETRY_AFTER
                          + ": the client cannot tell that the first request is still running"
                          + " and when to ask again"));
      if (delta.compareTo(one) != 0) {
        violation(
            "concurrent-one-effect",
            n
                + " concurrent requests with the same key moved the effect by "
                + delta
                + ", one execution moves it by "
                + one);
      }
    }

    private void missingKey() {
      Measured missing = measure(next().withoutHeader(KEY_HEADER));
      if (missing.status() == 400) {
        onceAnswered = true;
      } else {
        violation(
            "missing-key-400",
            "a request without "
                + KEY_HEADER
                + " was answered "
                + missing.response()
                + " instead of 400");
      }
      if (missing.moved()) {
        violation(
            "missing-key-400",
            "a request without "
                + KEY_HEADER
                + " moved the effect by "
                + missing.delta()
                + " (expected 0: it must be refused before anything executes)");
      }
    }

    private void failingHandler() {
      TestRequest request = next().withHeader(KEY_HEADER, newKey());
      Measured failed =
          measure(request.withHeader(OnceTestFaults.HEADER, OnceTestFaults.FAIL_AFTER_HANDLER));
      if (failed.status() < 500) {
        hookMissing(OnceTestFaults.FAIL_AFTER_HANDLER, failed, "withoutFailureCheck()");
        return;
      }
      if (failed.moved()) {
        violation(
            "failure-leaves-no-effect",
            "a request whose handler failed after its work ("
                + failed.response()
                + ") left its effect: it moved by "
                + failed.delta()
                + " (expected 0: everything rolls back)");
      }
      Measured retry = measure(request);
      TestResponse answer = retry.response();
      if (answer.status() >= 500
          || answer.status() == 409
          || replayed(answer)
          || retry.delta().compareTo(one) != 0) {
        violation(
            "failure-leaves-key-free",
            "the retry of a failed request with the same key did not execute anew ("
                + describe(answer)
                + ", effect moved by "
                + retry.delta()
                + ", one execution moves it by "
                + one
                + ")");
      }
    }

    private void lostAnswer() {
      TestRequest request = next().withHeader(KEY_HEADER, newKey());
      Measured lost =
          measure(request.withHeader(OnceTestFaults.HEADER, OnceTestFaults.FAIL_AFTER_COMMIT));
      if (lost.status() < 500) {
        hookMissing(OnceTestFaults.FAIL_AFTER_COMMIT, lost, "withoutLostAnswerCheck()");
        return;
      }
      if (lost.delta().compareTo(one) != 0) {
        violation(
            "lost-answer-replayed",
            "a request whose answer was lost after its commit moved the effect by "
                + lost.delta()
                + ", one execution moves it by "
                + one);
      }
      Measured retry = measure(request);
      if (!replayed(retry.response()) || retry.status() >= 500) {
        violation(
            "lost-answer-replayed",
            "the retry of a request whose answer was lost was not a replay ("
                + describe(retry.response())
                + ")");
      }
      if (retry.moved()) {
        violation(
            "lost-answer-replayed",
            "the retry of a request whose answer was lost applied the effect again (moved by "
                + retry.delta()
                + ", expected 0)");
      }
    }

    private void hookMissing(String fault, Measured answered, String skip) {
      violation(
          "failure-hook-missing",
          "the request with "
              + OnceTestFaults.HEADER
              + ": "
              + fault
              + " was answered "
              + answered.response()
              + ", not 5xx: the fault hook is not installed; @Import(dev.once.test.faults"
              + ".OnceTestFaults.class) into the application under test, or call "
              + skip);
    }

    /** {@code concurrency} requests, started together, each on a thread of its own. */
    private List<TestResponse> race(TestRequest request) {
      int n = concurrency;
      CountDownLatch ready = new CountDownLatch(n);
      CountDownLatch start = new CountDownLatch(1);
      CountDownLatch done = new CountDownLatch(n);
      TestResponse[] answers = new TestResponse[n];
      Throwable[] failures = new Throwable[n];
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int index = i;
        Thread thread =
            new Thread(
                () -> {
                  try {
                    ready.countDown();
                    if (start.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                      answers[index] = send(request);
                    }
                  } catch (Throwable e) {
                    failures[index] = e;
                  } finally {
                    done.countDown();
                  }
                },
                "once-test-concurrent-" + i);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
      try {
        if (!ready.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
          threads.forEach(Thread::interrupt);
          throw new AssertionError(
              "Endpoint "
                  + endpoint
                  + ": the concurrent requests' threads did not start within "
                  + WAIT_SECONDS
                  + " s");
        }
        start.countDown();
        if (!done.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
          threads.forEach(Thread::interrupt);
          throw new AssertionError(
              "Endpoint "
                  + endpoint
                  + ": "
                  + done.getCount()
                  + " of "
                  + n
                  + " concurrent requests with the same key got no answer within "
                  + WAIT_SECONDS
                  + " s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        threads.forEach(Thread::interrupt);
        throw new AssertionError("interrupted while waiting for the concurrent requests", e);
      }
      for (Throwable failure : failures) {
        if (failure instanceof AssertionError error) {
          throw error;
        }
        if (failure != null) {
          throw new AssertionError("a concurrent request failed: " + failure, failure);
        }
      }
      return List.of(answers);
    }

    private Measured measure(TestRequest request) {
      BigDecimal before = read();
      TestResponse response = send(request);
      return new Measured(response, read().subtract(before));
    }

    private TestResponse send(TestRequest request) {
      TestResponse response;
      try {
        response = target.exchange(request);
      } catch (Exception e) {
        throw new AssertionError(
            "Endpoint " + endpoint + ": " + target + " could not send " + request + ": " + e, e);
      }
      if (response == null) {
        throw new AssertionError(
            "Endpoint " + endpoint + ": " + target + " returned no answer to " + request);
      }
      if (replayed(response)) {
        onceAnswered = true;
      }
      return response;
    }

    private BigDecimal read() {
      return probe.read();
    }

    private TestRequest next() {
      return Objects.requireNonNull(
          requests.get(), "the request supplier given to withRequests returned null");
    }

    private void violation(String name, String text) {
      violations.add(name, text);
    }
  }

  private static String newKey() {
    return "once-test-" + UUID.randomUUID();
  }

  private static boolean replayed(TestResponse response) {
    return "true".equalsIgnoreCase(response.header(REPLAYED_HEADER));
  }

  private static String describe(TestResponse response) {
    return response + (replayed(response) ? ", replayed" : "");
  }

  /** How {@code replay} differs from {@code original}: status, body, Content-Type, Location. */
  private static List<String> differences(TestResponse original, TestResponse replay) {
    List<String> differences = new ArrayList<>();
    if (replay.status() != original.status()) {
      differences.add("status " + replay.status() + " instead of " + original.status());
    }
    if (!Arrays.equals(replay.body(), original.body())) {
      differences.add("another body (" + replay + " instead of " + original + ")");
    }
    for (String header : List.of("Content-Type", "Location")) {
      if (!Objects.equals(normalized(replay.header(header)), normalized(original.header(header)))) {
        differences.add(
            header + " " + replay.header(header) + " instead of " + original.header(header));
      }
    }
    return differences;
  }

  private static String normalized(String value) {
    return value == null ? null : value.replace(" ", "").toLowerCase(Locale.ROOT);
  }

  private static String statuses(List<TestResponse> answers) {
    Map<Integer, Integer> counts = new TreeMap<>();
    answers.forEach(a -> counts.merge(a.status(), 1, Integer::sum));
    StringBuilder text = new StringBuilder();
    counts.forEach(
        (status, count) ->
            text.append(text.length() == 0 ? "" : ", ").append(status).append(" ×").append(count));
    return text.toString();
  }
}
