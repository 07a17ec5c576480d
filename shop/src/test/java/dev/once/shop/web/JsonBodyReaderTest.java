package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.util.unit.DataSize;

/** The shared body reader's limits and syntax rules, without a server. */
class JsonBodyReaderTest {
  private final JsonBodyReader reader = new JsonBodyReader(DataSize.ofBytes(100), 3);

  @Test
  void readsAnObject() {
    JsonBody body = reader.read(request("{\"a\":\"x\",\"b\":[1,{\"c\":2}]}"));
    assertThat(body.requiredString("a", 10)).isEqualTo("x");
  }

  @Test
  void depthLimitIsInclusive() {
    reader.read(request("{\"a\":[[1]]}"));
    assertRefused("{\"a\":[[[1]]]}", ShopProblem.JSON_TOO_DEEP);
  }

  @Test
  void sizeLimitIsInclusive() {
    String exactly100 = "{\"a\":\"" + "x".repeat(92) + "\"}";
    assertThat(exactly100).hasSize(100);
    reader.read(request(exactly100));
    assertRefused("{\"a\":\"" + "x".repeat(93) + "\"}", ShopProblem.PAYLOAD_TOO_LARGE);
  }

  @Test
  void refusesDuplicatesTrailingContentAndEmptiness() {
    assertRefused("{\"a\":1,\"a\":2}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":1}{}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":1} x", ShopProblem.MALFORMED_JSON);
    assertRefused("", ShopProblem.MALFORMED_JSON);
    assertRefused("   ", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":01}", ShopProblem.MALFORMED_JSON);
    assertRefused("{\"a\":NaN}", ShopProblem.MALFORMED_JSON);
  }

  @Test
  void refusesDocumentsThatAreNotObjects() {
    assertRefused("[]", ShopProblem.VALIDATION_FAILED);
    assertRefused("1", ShopProblem.VALIDATION_FAILED);
    assertRefused("null", ShopProblem.VALIDATION_FAILED);
  }

  private void assertRefused(String body, ShopProblem problem) {
    assertThatThrownBy(() -> reader.read(request(body)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.problem()).isEqualTo(problem));
  }

  private static MockHttpServletRequest request(String body) {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/admin/v1/clients");
    request.setContentType("application/json");
    request.setContent(body.getBytes(StandardCharsets.UTF_8));
    return request;
  }
}
