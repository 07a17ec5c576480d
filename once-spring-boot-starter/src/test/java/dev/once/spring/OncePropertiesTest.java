package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** Bad configuration stops the start with a message that names the property and the value. */
class OncePropertiesTest {

  @Test
  void defaultsAreValid() {
    assertThatCode(() -> new OnceProperties().validate()).doesNotThrowAnyException();
  }

  @Test
  void retentionBelowOneSecondIsRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().setRetention(Duration.ZERO);
    assertThatThrownBy(p::validate)
        .hasMessageContaining("once.idempotency.retention")
        .hasMessageContaining("PT0S");
  }

  @Test
  void leaseBeyondWhatPostgresEnforcesIsRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().setLease(Duration.ofDays(30));
    assertThatThrownBy(p::validate).hasMessageContaining("once.idempotency.lease");
  }

  @Test
  void pathsAreEmptyByDefaultAndMayBe() {
    OnceProperties p = new OnceProperties();
    assertThat(p.getIdempotency().getHttp().getPaths()).isEmpty();
    p.getIdempotency().getHttp().setPaths(List.of());
    assertThatCode(p::validate).doesNotThrowAnyException();
  }

  @Test
  void malformedOrBlankPathPatternsAreRefusedByName() {
    for (String pattern : new String[] {"/v1/{id", " "}) {
      OnceProperties p = new OnceProperties();
      p.getIdempotency().getHttp().setPaths(List.of("/ok/**", pattern));
      assertThatThrownBy(p::validate)
          .hasMessageContaining("once.idempotency.http.paths")
          .hasMessageContaining("'" + pattern + "'");
    }
  }

  @Test
  void zeroBodyLimitIsRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().getHttp().setMaxBodySize(DataSize.ofBytes(0));
    assertThatThrownBy(p::validate).hasMessageContaining("once.idempotency.http.max-body-size");
  }

  @Test
  void depthAndBatchBoundsAreRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().getHttp().setMaxJsonDepth(0);
    assertThatThrownBy(p::validate).hasMessageContaining("once.idempotency.http.max-json-depth");
    OnceProperties q = new OnceProperties();
    q.getIdempotency().getPurge().setBatchSize(0);
    assertThatThrownBy(q::validate).hasMessageContaining("once.idempotency.purge.batch-size");
  }

  @Test
  void limitsOutOfRangeAreRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().getLimits().setMaxInFlightPerClient(-1);
    assertThatThrownBy(p::validate)
        .hasMessageContaining("once.idempotency.limits.max-in-flight-per-client")
        .hasMessageContaining("'-1'");
    OnceProperties q = new OnceProperties();
    q.getIdempotency().getLimits().setNewKeysPerMinute(-5);
    assertThatThrownBy(q::validate)
        .hasMessageContaining("once.idempotency.limits.new-keys-per-minute");
    OnceProperties r = new OnceProperties();
    r.getIdempotency().getLimits().setMaxAnswerSize(DataSize.ofBytes(0));
    assertThatThrownBy(r::validate).hasMessageContaining("once.idempotency.limits.max-answer-size");
  }

  @Test
  void aPurgeRunTimeOutOfRangeIsRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getIdempotency().getPurge().setMaxRunTime(Duration.ofMillis(10));
    assertThatThrownBy(p::validate).hasMessageContaining("once.idempotency.purge.max-run-time");
    OnceProperties q = new OnceProperties();
    q.getIdempotency().getPurge().setMaxRunTime(Duration.ofHours(2));
    assertThatThrownBy(q::validate).hasMessageContaining("once.idempotency.purge.max-run-time");
  }
}
