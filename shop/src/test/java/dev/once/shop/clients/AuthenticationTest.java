package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API-key authentication of every {@code /v1} request: anything but a valid key of an active client
 * is a 401 problem with a Bearer challenge, answered before the Idempotency-Key is even looked at,
 * and writes nothing.
 */
class AuthenticationTest extends ShopIntegrationTest {

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "Bearer shop_sk_unknown",
        "Bearer shop_sk_has space",
        "Token shop_sk_abc"
      })
  void refusesRequestsWithoutAValidKey(String authorization) {
    RowCounts before = rowCounts();
    for (HttpRequest.Builder request :
        new HttpRequest.Builder[] {
          http.request("/v1/accounts/acc_any").GET(),
          http.request("/v1/accounts")
              .header("Content-Type", ShopHttp.JSON)
              .header("Idempotency-Key", ShopHttp.newKey())
              .POST(HttpRequest.BodyPublishers.ofString("{\"currency\":\"EUR\"}")),
          // No Idempotency-Key either: authentication is checked first.
          http.request("/v1/payments")
              .header("Content-Type", ShopHttp.JSON)
              .POST(HttpRequest.BodyPublishers.ofString("{}"))
        }) {
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      ShopResponse answer = http.send(request).assertProblem(401, "unauthorized");
      assertThat(answer.header("WWW-Authenticate"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    }
    assertThat(rowCounts()).isEqualTo(before);
  }

  @Test
  void refusesTwoAuthorizationHeaders() {
    String key = newClient().apiKey();
    http.send(
            http.request("/v1/accounts/acc_any")
                .header("Authorization", "Bearer " + key)
                .header("Authorization", "Bearer " + key)
                .GET())
        .assertProblem(401, "unauthorized");
  }

  @Test
  void acceptsTheSchemeInAnyCase() {
    String key = newClient().apiKey();
    http.send(http.request("/v1/accounts/acc_any").header("Authorization", "bearer " + key).GET())
        .assertProblem(404, "account-not-found");
  }

  @Test
  void theKeyNeverAppearsInAnAnswer() {
    ShopResponse answer = http.get("/v1/accounts/acc_any", "shop_sk_secret-guess");
    answer.assertProblem(401, "unauthorized");
    assertThat(answer.body()).doesNotContain("secret-guess");
  }
}
