package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class IdempotencyTest {
  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final PspClient client = new PspClient(psp);
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void close() throws InterruptedException {
    psp.close();
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void theSameKeyAndBodyReplaysTheFirstAnswerWithoutANewEffect() {
    HttpResponse<String> first = client.charge("k1", "order-1", "12.50");
    HttpResponse<String> second = client.charge("k1", "order-1", "12.50");

    assertThat(second.statusCode()).isEqualTo(first.statusCode()).isEqualTo(201);
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(psp.stats().effects()).isEqualTo(1);
    assertThat(psp.stats("order-1")).isEqualTo(new ReferenceStats("order-1", 2, 1, "succeeded"));
  }

  @Test
  void aReplayComparesParsedValuesNotBytes() {
    HttpResponse<String> first = client.charge("k1", "order-1", "12.50");
    HttpResponse<String> second =
        client.post(
            "/v1/charges",
            "k1",
            "{ \"currency\" : \"EUR\", \"amount\" : \"12.5\", \"reference\" : \"order-1\" }");

    assertThat(second.statusCode()).isEqualTo(201);
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(second.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(psp.stats().effects()).isEqualTo(1);
  }

  @Test
  void aDeclineIsReplayedToo() {
    HttpResponse<String> first = client.charge("k1", "order-1", "1.51");
    HttpResponse<String> second = client.charge("k1", "order-1", "1.51");

    assertThat(second.body()).isEqualTo(first.body()).contains("card_declined");
    assertThat(psp.stats().chargesDeclined()).isEqualTo(1);
  }

  @Test
  void theSameKeyWithAnotherBodyIs422AndAppliesNothing() {
    client.charge("k1", "order-1", "12.50");

    HttpResponse<String> response = client.charge("k1", "order-1", "12.51");

    assertThat(response.statusCode()).isEqualTo(422);
    assertThat(PspClient.json(response).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/idempotency-key-reused");
    assertThat(psp.stats().effects()).isEqualTo(1);
    assertThat(psp.stats().chargesDeclined()).isZero();
  }

  @Test
  void keysAreScopedPerEndpoint() {
    client.charge("k1", "order-1", "10.00");

    HttpResponse<String> refund = client.refund("k1", "refund-1", "order-1", "1.00");

    assertThat(refund.statusCode()).isEqualTo(201);
    assertThat(refund.headers().firstValue("Idempotent-Replayed")).isEmpty();
    assertThat(psp.stats().refundsSucceeded()).isEqualTo(1);
  }

  @Test
  void twoKeysForOneReferenceAreTwoEffects() {
    JsonNode first = PspClient.json(client.charge("k1", "order-1", "12.50"));
    JsonNode second = PspClient.json(client.charge("k2", "order-1", "12.50"));

    assertThat(second.get("id").stringValue()).isNotEqualTo(first.get("id").stringValue());
    assertThat(psp.stats("order-1").effects()).isEqualTo(2);
    assertThat(psp.stats().chargesSucceeded()).isEqualTo(2);
  }

  @Test
  void aKeyInUseIs409WithRetryAfterAndOnlyTheFirstApplies() throws Exception {
    CountDownLatch applied = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    psp.afterApply(
        reference -> {
          applied.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });

    Future<HttpResponse<String>> first =
        threads.submit(() -> client.charge("k1", "order-1", "12.50"));
    assertThat(applied.await(30, TimeUnit.SECONDS)).isTrue();
    HttpResponse<String> second = client.charge("k1", "order-1", "12.50");
    release.countDown();

    assertThat(second.statusCode()).isEqualTo(409);
    assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(PspClient.json(second).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/idempotency-key-in-use");
    assertThat(first.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    assertThat(psp.stats().effects()).isEqualTo(1);
    HttpResponse<String> third = client.charge("k1", "order-1", "12.50");
    assertThat(third.statusCode()).isEqualTo(201);
    assertThat(third.headers().firstValue("Idempotent-Replayed")).hasValue("true");
  }

  @Test
  void anAfterApplyHookThatThrowsStillStoresTheAnswer() {
    psp.afterApply(
        reference -> {
          throw new IllegalStateException("merchant killed");
        });

    HttpResponse<String> first = client.charge("k1", "order-1", "12.50");
    HttpResponse<String> second = client.charge("k1", "order-1", "12.50");

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(second.body()).isEqualTo(first.body());
    assertThat(psp.stats().effects()).isEqualTo(1);
  }

  @Test
  void concurrentRefundsOfOneChargeNeverExceedIt() throws Exception {
    client.charge("c1", "order-1", "100.00");
    int refunds = 30;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < refunds; i++) {
      String n = Integer.toString(i);
      answers.add(
          threads.submit(
              () -> {
                start.await();
                return client.refund("r" + n, "refund-" + n, "order-1", "10.00");
              }));
    }
    start.countDown();

    int succeeded = 0;
    int exceeded = 0;
    for (Future<HttpResponse<String>> answer : answers) {
      JsonNode body = PspClient.json(answer.get(60, TimeUnit.SECONDS));
      if (body.get("status").stringValue().equals("succeeded")) {
        succeeded++;
      } else if (body.get("declineCode").stringValue().equals("exceeds_charge")) {
        exceeded++;
      }
    }
    assertThat(succeeded).isEqualTo(10);
    assertThat(exceeded).isEqualTo(refunds - 10);
    assertThat(psp.stats().refundsSucceeded()).isEqualTo(10);
  }
}
