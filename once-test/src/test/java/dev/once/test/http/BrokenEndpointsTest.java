package dev.once.test.http;

import static dev.once.test.OnceAssertions.assertThatEndpoint;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.test.faults.OnceTestFaults;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Import;

/**
 * Endpoints broken in the ways that lose idempotency: each makes {@link EndpointAssert} fail, once,
 * naming the violation.
 */
@Import(OnceTestFaults.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokenEndpointsTest extends EndpointApplicationTest {

  private EndpointAssert endpoint(String path) {
    return assertThatEndpoint(HttpTarget.baseUrl(baseUrl()))
        .withRequest(TestRequest.post(path + tag).json("{\"amount\":\"12.50\"}"));
  }

  /** The application as it would be without OnceTestFaults: the fault header reaches no hook. */
  private HttpTarget withoutHooks() {
    HttpTarget server = HttpTarget.baseUrl(baseUrl());
    return request -> server.exchange(request.withoutHeader(OnceTestFaults.HEADER));
  }

  @Test
  void anEffectAppliedBeforeTheKeyIsCheckedIsAppliedAgainByEveryRetry() {
    assertThatThrownBy(() -> endpoint("/hand/effect-first/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("Endpoint POST /hand/effect-first/" + tag + " is not idempotent:\n")
        .hasMessageContaining(
            "[retry-no-second-effect] a retry with the same key applied the effect again (effect"
                + " moved by 1, one execution moves it by 1)")
        .hasMessageContaining("[concurrent-one-effect]")
        .hasMessageContaining("[failure-leaves-no-effect]")
        .hasMessageNotContaining("[retry-replays]")
        .hasMessageNotContaining("[failure-hook-missing]");
  }

  @Test
  void anEffectCommittedOutsideOncesTransactionOutlivesAFailure() {
    assertThatThrownBy(() -> endpoint("/once/outside/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[failure-leaves-no-effect]")
        // Everything else holds: Once replays, refuses and serializes it as it should.
        .hasMessageNotContaining("[retry-")
        .hasMessageNotContaining("[concurrent-")
        .hasMessageNotContaining("[other-body-422]")
        .hasMessageNotContaining("[lost-answer-replayed]")
        .hasMessageNotContaining("hint:");
  }

  @Test
  void aBare409ForADuplicateIsNotOncesKeyInUse() {
    assertThatThrownBy(() -> endpoint("/hand/bare-409/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[concurrent-409-in-use] a concurrent duplicate was answered status 409, body"
                + " {\"error\":\"conflict\"} without Retry-After, not Once's 409"
                + " idempotency-key-in-use with Retry-After")
        // One executed, the others were refused: the effect itself is right.
        .hasMessageNotContaining("[concurrent-one-effect]")
        .hasMessageNotContaining("[concurrent-no-5xx]");
  }

  @Test
  void anEndpointOnceNeverAnswersGetsAHintAtTheUsualCause() {
    assertThatThrownBy(() -> endpoint("/hand/unprotected/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[retry-no-second-effect]")
        .hasMessageContaining("[missing-key-400]")
        .hasMessageEndingWith(
            "\n hint: no answer came from Once (no replay, no 400 for the missing key): is the"
                + " handler marked @Idempotent, and does the request pass Once's filter (MockMvc:"
                + " built with the application's filters, as @AutoConfigureMockMvc builds it)?");
  }

  @Test
  void aKeyWithoutItsStoredAnswerIsNoReplay() {
    assertThatThrownBy(() -> endpoint("/hand/answer-not-stored/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[retry-replays] a retry with the same key was not a replay of the first answer:"
                + " status 200 instead of 201")
        .hasMessageContaining("no Idempotent-Replayed: true")
        .hasMessageContaining("[lost-answer-replayed] the retry of a request whose answer was lost")
        .hasMessageNotContaining("[retry-no-second-effect]");
  }

  @Test
  void aFingerprintWithoutTheBodyReplaysAnotherRequest() {
    assertThatThrownBy(() -> endpoint("/hand/body-ignored/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[other-body-422] the same key with another body was answered status 201")
        .hasMessageNotContaining("[retry-");
  }

  /**
   * An application whose validation refuses the kit's default other body (an unknown member) with a
   * 422 of its own: without Once's problem in the answer, the 422 proves nothing about the
   * fingerprint, so the body-ignoring endpoint is still caught.
   */
  @Test
  void aFingerprintWithoutTheBodyIsCaughtBehindAStrictValidation() {
    HttpTarget server = HttpTarget.baseUrl(baseUrl());
    HttpTarget strict =
        request ->
            new String(request.body(), StandardCharsets.UTF_8).contains("onceTestOtherBody")
                ? new TestResponse(
                    422,
                    Map.of("Content-Type", List.of("application/problem+json")),
                    "{\"type\":\"about:blank#validation-failed\",\"status\":422}"
                        .getBytes(StandardCharsets.UTF_8))
                : server.exchange(request);
    assertThatThrownBy(
            () ->
                assertThatEndpoint(strict)
                    .withRequest(
                        TestRequest.post("/hand/body-ignored/" + tag).json("{\"amount\":\"1\"}"))
                    .isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[other-body-422] the same key with another body was answered status 422")
        .hasMessageContaining("not the problem idempotency-key-reused");
  }

  @Test
  void aMissingFaultHookIsNamedWithItsRemedy() {
    assertThatThrownBy(
            () ->
                assertThatEndpoint(withoutHooks())
                    .withRequest(TestRequest.post("/once/effects/" + tag).json("{}"))
                    .isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "[failure-hook-missing] the request with Once-Test-Fault: fail-after-handler was"
                + " answered status 201")
        .hasMessageContaining(
            "[failure-hook-missing] the request with Once-Test-Fault: fail-after-commit")
        .hasMessageContaining("@Import(dev.once.test.faults.OnceTestFaults.class)")
        .hasMessageContaining("withoutFailureCheck()");
  }

  @Test
  void withoutTheFaultChecksNoHookIsNeeded() {
    assertThatEndpoint(withoutHooks())
        .withRequest(TestRequest.post("/once/effects/" + tag).json("{}"))
        .withoutFailureCheck()
        .withoutLostAnswerCheck()
        .isIdempotent(rows());
  }

  @Test
  void aProbeThatDoesNotSeeTheEffectEndsTheAssertionAtOnce() {
    assertThatThrownBy(() -> endpoint("/once/effects/").isIdempotent(() -> 7))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[first-call-executes]")
        .hasMessageContaining("the probe does not see the endpoint's effect")
        .hasMessageNotContaining("[retry-");
  }
}
