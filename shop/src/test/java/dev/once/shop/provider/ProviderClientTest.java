package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.psp.Faults;
import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * What each provider answer means for the row: a final answer is recorded, anything the same key
 * may safely repeat is retried, and a refusal of the request itself goes to an operator. A wrong
 * class here either charges nobody (a retryable answer taken as final) or retries for ever.
 */
class ProviderClientTest {
  private final ProviderClient client = client(URI.create("http://127.0.0.1:1"));

  /** The shop's provider client on {@code base}: 1 s per attempt, 1.5 s per call. */
  private static ProviderClient client(URI base) {
    return new ProviderClient(
        ProviderClient.client(
            ProviderClient.http(Duration.ofMillis(100)),
            Duration.ofSeconds(1),
            Duration.ofMillis(1500)),
        base,
        JsonMapper.builder().build());
  }

  @Test
  void aSucceededOrDeclinedAnswerIsFinal() {
    assertThat(client.answer(201, "{\"id\":\"ch_1\",\"status\":\"succeeded\"}"))
        .isEqualTo(new ProviderAnswer.Succeeded("ch_1"));
    assertThat(client.answer(200, "{\"status\":\"declined\",\"declineCode\":\"card_declined\"}"))
        .isEqualTo(new ProviderAnswer.Declined("card_declined"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"status\":\"pending\"}", "not json", "", "[1]"})
  void aSuccessStatusWithoutAFinalOutcomeIsRetried(String body) {
    assertThat(client.answer(201, body)).isInstanceOf(ProviderAnswer.Unavailable.class);
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 409, 425, 429, 500, 502, 503, 504})
  void answersTheSameKeyMayRepeatAreRetried(int status) {
    assertThat(client.answer(status, "{}")).isInstanceOf(ProviderAnswer.Unavailable.class);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 413, 415, 422})
  void aRefusalOfTheRequestItselfGoesToAnOperatorWithItsSlugButNotItsBody(int status) {
    ProviderAnswer answer =
        client.answer(
            status,
            "{\"type\":\"https://once.dev/psp/problems/charge-not-found\",\"detail\":\"secret\"}");

    assertThat(answer).isInstanceOf(ProviderAnswer.Rejected.class);
    ProviderAnswer.Rejected rejected = (ProviderAnswer.Rejected) answer;
    assertThat(rejected.status()).isEqualTo(status);
    assertThat(rejected.reason()).isEqualTo("HTTP " + status + " charge-not-found");
    assertThat(rejected.reason()).doesNotContain("secret");
  }

  @Test
  void aProviderThatCannotBeReachedIsRetried() {
    // Port 1 on loopback: connection refused.
    assertThat(client.charge("key", "pay_1", "1.00", "EUR"))
        .isInstanceOfSatisfying(
            ProviderAnswer.Unavailable.class,
            u -> assertThat(u.reason()).contains("ConnectException"));
  }

  /** Against the real simulator and its faults: once-client's retries inside one call. */
  @Nested
  @Timeout(60)
  class AgainstTheSimulator {
    private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
    private final ProviderClient provider = client(psp.baseUri());

    @AfterEach
    void close() {
      psp.close();
    }

    @Test
    void aLostAnswerIsRetriedInTheCallUnderItsKeyAndAppliedOnce() {
      psp.faults(Faults.NONE.withLostAnswerRate(1.0));

      assertThat(provider.charge("shop-charge-p1", "p1", "12.50", "EUR"))
          .isInstanceOf(ProviderAnswer.Succeeded.class);
      assertThat(psp.stats("p1").requests()).isEqualTo(2);
      assertThat(psp.stats("p1").effects()).isEqualTo(1);
    }

    @Test
    void aProviderStillDownAtTheDeadlineIsUnavailableSoTheRelayTriesLater() {
      psp.faults(Faults.NONE.withErrorRate(1.0));

      // Retry-After: 1 within a 1.5 s deadline: attempts at 0 and 1 s, then the call ends.
      assertThat(provider.charge("shop-charge-p2", "p2", "12.50", "EUR"))
          .isEqualTo(new ProviderAnswer.Unavailable("gave up after 2 attempt(s): HTTP 503"));
      assertThat(psp.stats("p2").requests()).isEqualTo(2);
      assertThat(psp.stats("p2").effects()).isZero();
    }

    @Test
    void aDeclineIsFinalAtTheFirstAttempt() {
      assertThat(provider.charge("shop-charge-p3", "p3", "10.51", "EUR"))
          .isEqualTo(new ProviderAnswer.Declined("card_declined"));
      assertThat(psp.stats("p3").requests()).isEqualTo(1);
    }

    @Test
    void anotherRequestUnderTheKeyIsRejectedWithoutRetries() {
      provider.charge("shop-charge-p4", "p4", "12.50", "EUR");

      assertThat(provider.charge("shop-charge-p4", "p4", "99.00", "EUR"))
          .isEqualTo(new ProviderAnswer.Rejected(422, "HTTP 422 idempotency-key-reused"));
      assertThat(psp.stats("p4").requests()).isEqualTo(2);
      assertThat(psp.stats("p4").effects()).isEqualTo(1);
    }

    @Test
    void anotherRefusalIsRejectedAtTheFirstAttempt() {
      assertThat(provider.refund("shop-refund-r1", "r1", "no-such-charge", "1.00", "EUR"))
          .isEqualTo(new ProviderAnswer.Rejected(404, "HTTP 404 charge-not-found"));
    }
  }
}
