package dev.once.test.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.test.faults.OnceTestFaults;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Import;

/**
 * {@link OnceTestFaults} on a real server in front of Once's filter: each hook fails the request
 * where it says, and the client never sees the answer the application gave.
 */
@Import(OnceTestFaults.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FaultHooksTest extends EndpointApplicationTest {

  private final TestRequest request =
      TestRequest.post("/once/effects/" + tag)
          .json("{\"amount\":\"1.00\"}")
          .header(EndpointAssert.KEY_HEADER, "once-test-" + UUID.randomUUID());

  private long count() throws Exception {
    return rows().read().longValue();
  }

  private TestResponse send(TestRequest request) throws Exception {
    return HttpTarget.baseUrl(baseUrl()).exchange(request);
  }

  @Test
  void failAfterCommitKeepsTheEffectAndLosesTheAnswer() throws Exception {
    TestResponse lost =
        send(request.header(OnceTestFaults.HEADER, OnceTestFaults.FAIL_AFTER_COMMIT));

    assertThat(lost.status()).isEqualTo(500);
    assertThat(lost.bodyText()).doesNotContain("\"id\"");
    assertThat(lost.header("Location")).isNull();
    assertThat(count()).isEqualTo(1);

    TestResponse retry = send(request);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header(EndpointAssert.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(count()).isEqualTo(1);
  }

  @Test
  void failAfterHandlerRollsBackAndLeavesTheKeyFree() throws Exception {
    TestResponse failed =
        send(request.header(OnceTestFaults.HEADER, OnceTestFaults.FAIL_AFTER_HANDLER));

    assertThat(failed.status()).isEqualTo(500);
    assertThat(failed.bodyText()).doesNotContain("\"id\"");
    assertThat(count()).isZero();

    TestResponse retry = send(request);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.header(EndpointAssert.REPLAYED_HEADER)).isNull();
    assertThat(count()).isEqualTo(1);
  }

  @Test
  void anotherValueOfTheHeaderPassesThrough() throws Exception {
    TestResponse answer = send(request.header(OnceTestFaults.HEADER, "none"));

    assertThat(answer.status()).isEqualTo(201);
    assertThat(count()).isEqualTo(1);
  }
}
