package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class FaultsTest {
  private final List<PspSimulator> started = new ArrayList<>();

  private PspSimulator start(Faults faults) {
    return start(PspSettings.defaults().withFaults(faults));
  }

  private PspSimulator start(PspSettings settings) {
    PspSimulator psp = PspSimulator.start(settings);
    started.add(psp);
    return psp;
  }

  @AfterEach
  void close() {
    started.forEach(PspSimulator::close);
  }

  @Test
  void anErrorIs503AppliesNothingAndIsNotStored() {
    PspSimulator psp = start(Faults.NONE.withErrorRate(1.0));
    PspClient client = new PspClient(psp);

    HttpResponse<String> response = client.charge("k1", "order-1", "12.50");

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(PspClient.json(response).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/provider-unavailable");
    assertThat(psp.stats().effects()).isZero();
    assertThat(psp.stats().errors()).isEqualTo(1);

    psp.faults(Faults.NONE);
    HttpResponse<String> retry = client.charge("k1", "order-1", "12.50");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(psp.stats().effects()).isEqualTo(1);
  }

  @Test
  void aTimeoutHoldsThen504AppliesNothingAndIsNotStored() {
    PspSimulator psp = start(Faults.NONE.withTimeoutRate(1.0).withTimeoutMs(50));
    PspClient client = new PspClient(psp);

    HttpResponse<String> response = client.charge("k1", "order-1", "12.50");

    assertThat(response.statusCode()).isEqualTo(504);
    assertThat(PspClient.json(response).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/provider-timeout");
    assertThat(psp.stats().effects()).isZero();
    assertThat(psp.stats().timeouts()).isEqualTo(1);

    psp.faults(Faults.NONE);
    HttpResponse<String> retry = client.charge("k1", "order-1", "12.50");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(psp.stats().effects()).isEqualTo(1);
  }

  @Test
  void aLostAnswerAppliesAndStoresButClosesTheConnection() {
    PspSimulator psp = start(Faults.NONE.withLostAnswerRate(1.0));
    PspClient client = new PspClient(psp);
    String body = PspClient.charge("order-1", "12.50");

    assertThatThrownBy(() -> client.postOrThrow("/v1/charges", "k1", body))
        .isInstanceOf(IOException.class);
    assertThat(psp.stats().effects()).isEqualTo(1);
    assertThat(psp.stats().lostAnswers()).isEqualTo(1);

    HttpResponse<String> retry = client.post("/v1/charges", "k1", body);
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(PspClient.json(retry).get("status").stringValue()).isEqualTo("succeeded");
    assertThat(psp.stats().effects()).isEqualTo(1);
    assertThat(psp.stats("order-1").effects()).isEqualTo(1);
  }

  @Test
  void faultsPutAtRunTimeTakeEffect() {
    PspSimulator psp = start(Faults.NONE);
    PspClient client = new PspClient(psp);

    HttpResponse<String> put =
        client.put(
            "/v1/faults",
            "{\"latencyMs\":0,\"errorRate\":1.0,\"timeoutRate\":0,\"lostAnswerRate\":0,"
                + "\"timeoutMs\":1000}");

    assertThat(put.statusCode()).isEqualTo(200);
    assertThat(psp.faults()).isEqualTo(new Faults(0, 1.0, 0, 0, 1000));
    JsonNode shown = PspClient.json(client.get("/v1/faults"));
    assertThat(shown.get("errorRate").doubleValue()).isEqualTo(1.0);
    assertThat(shown.get("timeoutMs").longValue()).isEqualTo(1000);
    assertThat(client.charge("k1", "order-1", "1.00").statusCode()).isEqualTo(503);

    client.put(
        "/v1/faults",
        "{\"latencyMs\":0,\"errorRate\":0,\"timeoutRate\":0,\"lostAnswerRate\":0,"
            + "\"timeoutMs\":1000}");
    assertThat(client.charge("k1", "order-1", "1.00").statusCode()).isEqualTo(201);
  }

  @Test
  void badFaultSettingsAre422AndChangeNothing() {
    PspSimulator psp = start(Faults.NONE);
    PspClient client = new PspClient(psp);
    String[][] cases = {
      {
        "{\"latencyMs\":0,\"errorRate\":1.5,\"timeoutRate\":0,\"lostAnswerRate\":0,\"timeoutMs\":1}",
        "errorRate"
      },
      {
        "{\"latencyMs\":0,\"errorRate\":0.5,\"timeoutRate\":0.3,\"lostAnswerRate\":0.3,"
            + "\"timeoutMs\":1}",
        "lostAnswerRate"
      },
      {
        "{\"latencyMs\":-1,\"errorRate\":0,\"timeoutRate\":0,\"lostAnswerRate\":0,\"timeoutMs\":1}",
        "latencyMs"
      },
      {
        "{\"latencyMs\":0,\"errorRate\":0,\"timeoutRate\":0,\"lostAnswerRate\":0,"
            + "\"timeoutMs\":600001}",
        "timeoutMs"
      },
      {
        "{\"latencyMs\":1.5,\"errorRate\":0,\"timeoutRate\":0,\"lostAnswerRate\":0,\"timeoutMs\":1}",
        "latencyMs"
      },
      {
        "{\"latencyMs\":0,\"errorRate\":\"0.5\",\"timeoutRate\":0,\"lostAnswerRate\":0,"
            + "\"timeoutMs\":1}",
        "errorRate"
      },
      {"{\"latencyMs\":0,\"errorRate\":0,\"timeoutRate\":0,\"timeoutMs\":1}", "lostAnswerRate"},
      {
        "{\"latencyMs\":0,\"errorRate\":0,\"timeoutRate\":0,\"lostAnswerRate\":0,\"timeoutMs\":1,"
            + "\"jitter\":1}",
        "jitter"
      },
    };
    for (String[] bad : cases) {
      HttpResponse<String> response = client.put("/v1/faults", bad[0]);

      assertThat(response.statusCode()).as(bad[0]).isEqualTo(422);
      JsonNode problem = PspClient.json(response);
      assertThat(problem.get("type").stringValue())
          .isEqualTo("https://once.dev/psp/problems/invalid-request");
      assertThat(problem.get("field").stringValue()).as(bad[0]).isEqualTo(bad[1]);
      assertThat(psp.faults()).isEqualTo(Faults.NONE);
    }
  }

  @Test
  void theFaultsRecordRejectsOutOfRangeValues() {
    assertThatThrownBy(() -> Faults.NONE.withErrorRate(-0.1))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("errorRate"));
    assertThatThrownBy(() -> Faults.NONE.withTimeoutRate(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Faults.NONE.withLatencyMs(600_001))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Faults(0, 0.6, 0.6, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new Faults(0, 0.1, 0.2, 0.7, 1).lostAnswerRate()).isEqualTo(0.7);
  }

  @Test
  void theSameSeedGivesTheSameFaults() {
    Faults faults = Faults.NONE.withErrorRate(0.5);
    List<Integer> first = statuses(start(PspSettings.defaults().withFaults(faults).withSeed(7)));
    List<Integer> second = statuses(start(PspSettings.defaults().withFaults(faults).withSeed(7)));

    assertThat(first).isEqualTo(second).contains(201, 503);
  }

  @Test
  void closeWakesAHeldRequestAndStopsListening() throws Exception {
    PspSimulator psp = start(Faults.NONE.withTimeoutRate(1.0).withTimeoutMs(600_000));
    PspClient client = new PspClient(psp);
    CompletableFuture<HttpResponse<String>> held =
        CompletableFuture.supplyAsync(() -> client.charge("k1", "order-1", "1.00"));
    while (psp.stats().timeouts() == 0) {
      Thread.onSpinWait();
    }

    psp.close();

    assertThatThrownBy(() -> held.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
    assertThatThrownBy(() -> client.postOrThrow("/v1/charges", "k2", "{}"))
        .isInstanceOf(IOException.class);
    assertThat(psp.stats().effects()).isZero();
  }

  private static List<Integer> statuses(PspSimulator psp) {
    PspClient client = new PspClient(psp);
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      statuses.add(client.charge("k" + i, "order-" + i, "1.00").statusCode());
    }
    return statuses;
  }
}
