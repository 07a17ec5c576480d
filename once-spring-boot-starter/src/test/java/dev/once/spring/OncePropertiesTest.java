package dev.once.spring;

import static dev.once.spring.BoundProperties.bind;
import static dev.once.spring.BoundProperties.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.util.unit.DataSize;

/**
 * Bad configuration stops the start with Bean Validation's report, which names the property, the
 * allowed range and the value.
 */
class OncePropertiesTest {

  @Test
  void defaultsAreValidAndTheSameBoundOrBuilt() {
    OnceProperties bound = bind();
    assertThat(bound).isEqualTo(OnceProperties.defaults());
    assertThat(bound.idempotency().retention()).isEqualTo(Duration.ofHours(24));
    assertThat(bound.idempotency().retryAfter()).isEqualTo(Duration.ofSeconds(1));
    assertThat(bound.idempotency().lease()).isEqualTo(Duration.ofSeconds(60));
    assertThat(bound.idempotency().http().methods()).containsExactly("POST");
    assertThat(bound.idempotency().http().maxBodySize()).isEqualTo(DataSize.ofMegabytes(1));
    assertThat(bound.idempotency().http().maxJsonDepth()).isEqualTo(64);
    assertThat(bound.idempotency().http().problemTypeBase())
        .isEqualTo("https://once.dev/problems/");
    assertThat(bound.idempotency().limits().maxAnswerSize()).isEqualTo(DataSize.ofKilobytes(64));
    assertThat(bound.idempotency().purge().batchSize()).isEqualTo(500);
    assertThat(bound.idempotency().purge().interval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(bound.schema().migrate()).isTrue();
    assertThat(bound.inbox().retention()).isEqualTo(Duration.ofDays(7));
    assertThat(bound.inbox().purge().interval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(bound.inbox().purge().batchSize()).isEqualTo(1000);
  }

  @Test
  void retentionBelowOneSecondIsRefusedByName() {
    assertThat(failure("once.idempotency.retention=0s"))
        .contains("once.idempotency.retention: must be at least 1s, but was 'PT0S'");
  }

  @Test
  void leaseBeyondWhatPostgresEnforcesIsRefusedByName() {
    assertThat(failure("once.idempotency.lease=30d"))
        .contains("once.idempotency.lease: must be 1s to 24d, but was 'PT720H'");
  }

  @Test
  void pathsAreEmptyByDefaultAndMayBe() {
    assertThat(bind().idempotency().http().paths()).isEmpty();
    assertThat(bind("once.idempotency.http.paths=").idempotency().http().paths()).isEmpty();
  }

  @Test
  void malformedOrBlankPathPatternsAreRefusedByName() {
    for (String pattern : new String[] {"/v1/{id", " "}) {
      assertThat(
              failure(
                  "once.idempotency.http.paths[0]=/ok/**",
                  "once.idempotency.http.paths[1]=" + pattern))
          .contains("once.idempotency.http.paths: must hold Spring path patterns")
          .contains("'" + pattern.trim() + "' is not one");
    }
  }

  @Test
  void zeroBodyLimitIsRefusedByName() {
    assertThat(failure("once.idempotency.http.max-body-size=0B"))
        .contains("once.idempotency.http.max-body-size: must be 1B to 2GB, but was '0B'");
  }

  @Test
  void depthAndBatchBoundsAreRefusedByName() {
    assertThat(failure("once.idempotency.http.max-json-depth=0"))
        .contains("once.idempotency.http.max-json-depth: must be 1 to 10000, but was '0'");
    assertThat(failure("once.idempotency.purge.batch-size=0"))
        .contains("once.idempotency.purge.batch-size: must be 1 to 100000, but was '0'");
  }

  @Test
  void limitsOutOfRangeAreRefusedByName() {
    assertThat(failure("once.idempotency.limits.max-in-flight-per-client=-1"))
        .contains(
            "once.idempotency.limits.max-in-flight-per-client: must be 0 to 100000 (0: no cap), but"
                + " was '-1'");
    assertThat(failure("once.idempotency.limits.new-keys-per-minute=-5"))
        .contains("once.idempotency.limits.new-keys-per-minute: must be 0 to 10000000");
    assertThat(failure("once.idempotency.limits.max-answer-size=0B"))
        .contains("once.idempotency.limits.max-answer-size: must be 1B to 2GB");
  }

  @Test
  void aPurgeRunTimeOutOfRangeIsRefusedByName() {
    assertThat(failure("once.idempotency.purge.max-run-time=10ms"))
        .contains("once.idempotency.purge.max-run-time: must be 100ms to 1h, but was 'PT0.01S'");
    assertThat(failure("once.idempotency.purge.max-run-time=2h"))
        .contains("once.idempotency.purge.max-run-time: must be 100ms to 1h, but was 'PT2H'");
  }

  @Test
  void noMethodIsRefusedByName() {
    assertThat(failure("once.idempotency.http.methods="))
        .contains("once.idempotency.http.methods: must name at least one method");
  }

  @Test
  void everyBadValueIsReportedAtOnce() {
    assertThat(
            failure(
                "once.idempotency.http.max-json-depth=0",
                "once.idempotency.http.filter-order=3",
                "once.idempotency.http.max-body-size=0B"))
        .contains("once.idempotency.http.max-json-depth")
        .contains("once.idempotency.http.max-body-size");
  }

  /**
   * The report a user sees: Spring Boot runs the failure analyzers it finds in spring.factories,
   * and Once's names each bad property in its dashed form, with its value and range.
   */
  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void theStartFailureReportNamesThePropertyAsItIsWritten(CapturedOutput output) {
    SpringApplication application = new SpringApplication(BoundProperties.PropertiesOnly.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setDefaultProperties(
        Map.of(
            "once.idempotency.http.max-body-size", "0B",
            "once.idempotency.lease", "30d",
            "spring.main.banner-mode", "off"));

    assertThatThrownBy(application::run).isInstanceOf(RuntimeException.class);

    assertThat(output.getAll())
        .contains("APPLICATION FAILED TO START")
        .contains("Once's configuration is invalid")
        .contains("once.idempotency.http.max-body-size: must be 1B to 2GB, but was '0B'")
        .contains("once.idempotency.lease: must be 1s to 24d")
        .doesNotContain("maxBodySize");
  }

  /** Keys in brackets (message types) keep their spelling; the segments around them are dashed. */
  @Test
  void bracketedKeysKeepTheirSpelling() {
    assertThat(
            OncePropertiesFailureAnalyzer.property(
                "once.outbox.relay", "types[provider.Charge].maxAttempts"))
        .isEqualTo("once.outbox.relay.types[provider.Charge].max-attempts");
  }
}
