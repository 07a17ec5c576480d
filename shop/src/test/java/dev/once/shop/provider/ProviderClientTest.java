package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * What each provider answer means for the row: a final answer is recorded, anything the same key
 * may safely repeat is retried, and a refusal of the request itself goes to an operator. A wrong
 * class here either charges nobody (a retryable answer taken as final) or retries for ever.
 */
class ProviderClientTest {
  private final ProviderClient client =
      new ProviderClient(
          ProviderClient.http(Duration.ofMillis(100)),
          URI.create("http://127.0.0.1:1"),
          Duration.ofMillis(100),
          JsonMapper.builder().build());

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
        .isInstanceOf(ProviderAnswer.Unavailable.class);
  }
}
