package dev.once.psp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ChargesAndRefundsTest {
  private final PspSimulator psp = PspSimulator.start(PspSettings.defaults());
  private final PspClient client = new PspClient(psp);

  @AfterEach
  void close() {
    psp.close();
  }

  @Test
  void aChargeSucceedsAndEchoesTheRequest() {
    HttpResponse<String> response = client.charge("k1", "order-1", "12.50");

    assertThat(response.statusCode()).isEqualTo(201);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
    JsonNode body = PspClient.json(response);
    assertThat(body.get("id").stringValue()).startsWith("ch_");
    assertThat(body.get("reference").stringValue()).isEqualTo("order-1");
    assertThat(body.get("amount").stringValue()).isEqualTo("12.50");
    assertThat(body.get("currency").stringValue()).isEqualTo("EUR");
    assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(body.has("declineCode")).isFalse();
    assertThat(psp.stats().chargesSucceeded()).isEqualTo(1);
    assertThat(psp.stats(("order-1"))).isEqualTo(new ReferenceStats("order-1", 1, 1, "succeeded"));
  }

  @Test
  void aChargeWhoseFractionIsExactly51IsDeclined() {
    JsonNode declined = PspClient.json(client.charge("k1", "order-1", "10.51"));
    JsonNode padded = PspClient.json(client.charge("k2", "order-2", "0.5100"));
    JsonNode near = PspClient.json(client.charge("k3", "order-3", "10.051"));

    assertThat(declined.get("status").stringValue()).isEqualTo("declined");
    assertThat(declined.get("declineCode").stringValue()).isEqualTo("card_declined");
    assertThat(padded.get("status").stringValue()).isEqualTo("declined");
    assertThat(near.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(psp.stats().chargesDeclined()).isEqualTo(2);
    assertThat(psp.stats().chargesSucceeded()).isEqualTo(1);
    assertThat(psp.stats().effects()).isEqualTo(3);
    assertThat(psp.stats("order-1").status()).isEqualTo("declined");
  }

  @Test
  void aRefundSucceeds() {
    client.charge("c1", "order-1", "12.50");

    HttpResponse<String> response = client.refund("r1", "refund-1", "order-1", "2.50");

    assertThat(response.statusCode()).isEqualTo(201);
    JsonNode body = PspClient.json(response);
    assertThat(body.get("id").stringValue()).startsWith("re_");
    assertThat(body.get("reference").stringValue()).isEqualTo("refund-1");
    assertThat(body.get("charge").stringValue()).isEqualTo("order-1");
    assertThat(body.get("amount").stringValue()).isEqualTo("2.50");
    assertThat(body.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(psp.stats().refundsSucceeded()).isEqualTo(1);
    assertThat(psp.stats().effects()).isEqualTo(2);
  }

  @Test
  void aRefundWhoseFractionIsExactly52IsDeclinedAndDoesNotUseUpTheCharge() {
    client.charge("c1", "order-1", "10.00");

    JsonNode declined = PspClient.json(client.refund("r1", "refund-1", "order-1", "3.52"));
    JsonNode full = PspClient.json(client.refund("r2", "refund-2", "order-1", "10.00"));

    assertThat(declined.get("status").stringValue()).isEqualTo("declined");
    assertThat(declined.get("declineCode").stringValue()).isEqualTo("refund_declined");
    assertThat(full.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(psp.stats().refundsDeclined()).isEqualTo(1);
  }

  @Test
  void refundsBeyondTheChargeAreDeclined() {
    client.charge("c1", "order-1", "10.00");

    JsonNode first = PspClient.json(client.refund("r1", "refund-1", "order-1", "6.00"));
    JsonNode second = PspClient.json(client.refund("r2", "refund-2", "order-1", "4.01"));
    JsonNode rest = PspClient.json(client.refund("r3", "refund-3", "order-1", "4.00"));

    assertThat(first.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(second.get("status").stringValue()).isEqualTo("declined");
    assertThat(second.get("declineCode").stringValue()).isEqualTo("exceeds_charge");
    assertThat(rest.get("status").stringValue()).isEqualTo("succeeded");
  }

  @Test
  void aRefundOfADeclinedChargeIsDeclined() {
    client.charge("c1", "order-1", "10.51");

    JsonNode refund = PspClient.json(client.refund("r1", "refund-1", "order-1", "1.00"));

    assertThat(refund.get("status").stringValue()).isEqualTo("declined");
    assertThat(refund.get("declineCode").stringValue()).isEqualTo("charge_not_succeeded");
  }

  @Test
  void aRefundOfAnUnknownChargeIs404AndAppliesNothing() {
    HttpResponse<String> response = client.refund("r1", "refund-1", "no-such-order", "1.00");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(PspClient.json(response).get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/charge-not-found");
    assertThat(psp.stats().effects()).isZero();
    assertThat(psp.stats().requests()).isZero();
  }

  @Test
  void aRefundInAnotherCurrencyThanTheChargeIs422() {
    client.charge("c1", "order-1", "10.00");

    HttpResponse<String> response =
        client.post(
            "/v1/refunds",
            "r1",
            "{\"reference\":\"refund-1\",\"charge\":\"order-1\",\"amount\":\"1.00\","
                + "\"currency\":\"USD\"}");

    assertThat(response.statusCode()).isEqualTo(422);
    JsonNode problem = PspClient.json(response);
    assertThat(problem.get("type").stringValue())
        .isEqualTo("https://once.dev/psp/problems/invalid-request");
    assertThat(problem.get("field").stringValue()).isEqualTo("currency");
    assertThat(psp.stats().refundsSucceeded() + psp.stats().refundsDeclined()).isZero();
    assertThat(psp.stats("refund-1").requests()).isZero();
  }

  @Test
  void statsAreServedAsJson() {
    client.charge("c1", "order-1", "10.00");
    client.charge("c2", "order-2", "10.51");
    client.refund("r1", "refund-1", "order-1", "1.52");

    JsonNode stats = PspClient.json(client.get("/v1/stats"));
    JsonNode reference = PspClient.json(client.get("/v1/stats/references/order-1"));
    JsonNode unknown = PspClient.json(client.get("/v1/stats/references/nobody"));

    assertThat(stats.get("requests").longValue()).isEqualTo(3);
    assertThat(stats.get("charges").get("succeeded").longValue()).isEqualTo(1);
    assertThat(stats.get("charges").get("declined").longValue()).isEqualTo(1);
    assertThat(stats.get("refunds").get("succeeded").longValue()).isZero();
    assertThat(stats.get("refunds").get("declined").longValue()).isEqualTo(1);
    assertThat(stats.get("effects").longValue()).isEqualTo(3);
    assertThat(stats.get("faults").get("errors").longValue()).isZero();
    assertThat(stats.get("faults").get("timeouts").longValue()).isZero();
    assertThat(stats.get("faults").get("lostAnswers").longValue()).isZero();
    assertThat(reference.get("reference").stringValue()).isEqualTo("order-1");
    assertThat(reference.get("requests").longValue()).isEqualTo(1);
    assertThat(reference.get("effects").longValue()).isEqualTo(1);
    assertThat(reference.get("status").stringValue()).isEqualTo("succeeded");
    assertThat(unknown.get("requests").longValue()).isZero();
    assertThat(unknown.get("effects").longValue()).isZero();
    assertThat(unknown.get("status").isNull()).isTrue();
  }

  @Test
  void aReferenceWithReservedCharactersIsFoundPercentEncoded() {
    client.charge("c1", "order/1 +x", "10.00");

    JsonNode reference = PspClient.json(client.get("/v1/stats/references/order%2F1%20%2Bx"));

    assertThat(reference.get("reference").stringValue()).isEqualTo("order/1 +x");
    assertThat(reference.get("effects").longValue()).isEqualTo(1);
  }
}
