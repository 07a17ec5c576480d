package dev.once.test.http;

import static dev.once.test.OnceAssertions.assertThatEndpoint;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.test.faults.OnceTestFaults;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The MockMvc most applications' tests inject, built by {@code @AutoConfigureMockMvc}: it applies
 * the application's filters, Once's and the fault hooks among them, in their order, so the kit
 * needs nothing more than {@link MockMvcTarget#of}.
 */
@AutoConfigureMockMvc
@Import(OnceTestFaults.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AutoConfiguredMockMvcTest extends EndpointApplicationTest {

  @Autowired MockMvc mvc;

  private EndpointAssert endpoint(String path) {
    return assertThatEndpoint(MockMvcTarget.of(mvc))
        .withRequest(TestRequest.post(path + tag).json("{\"amount\":\"12.50\"}"));
  }

  @Test
  void anIdempotentEndpointPassesEveryCheck() {
    endpoint("/once/effects/").isIdempotent(rows());
  }

  @Test
  void aBrokenEndpointFailsNamingItsViolationOnly() {
    assertThatThrownBy(() -> endpoint("/once/outside/").isIdempotent(rows()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[failure-leaves-no-effect]")
        .hasMessageNotContaining("[failure-hook-missing]")
        .hasMessageNotContaining("[retry-")
        .hasMessageNotContaining("[concurrent-")
        .hasMessageNotContaining("hint:");
  }
}
