package dev.once.spring;

import static dev.once.spring.BoundProperties.bind;
import static dev.once.spring.BoundProperties.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.RetryPolicy;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The relay's and the inbox's settings are refused by name and value; per-type retry overrides. */
class OutboxSettingsTest {

  @Test
  void defaultsAreValidAndTheDefaultPolicyIsTheCoresDefault() {
    OnceProperties p = bind();
    assertThat(OutboxSettings.defaultPolicy(p.outbox().relay())).isEqualTo(RetryPolicy.DEFAULT);
    assertThat(p.outbox().relay().workers()).isEqualTo(8);
    assertThat(p.outbox().relay().poolSize()).isEqualTo(OnceProperties.Relay.DEFAULT_POOL_SIZE);
    assertThat(p.outbox().relay().claimCoalescing()).isEqualTo(Duration.ofMillis(5));
    assertThat(p.outbox().relay().types()).isEmpty();
    assertThat(p.outbox().events()).isEmpty();
  }

  @Test
  void badRelaySettingsAreRefusedByNameAndValue() {
    assertThat(failure("once.outbox.relay.workers=0"))
        .contains("once.outbox.relay.workers: must be 1 to 1000, but was '0'");
    assertThat(failure("once.outbox.relay.poll-interval=5ms"))
        .contains("once.outbox.relay.poll-interval: must be 10ms to 1h, but was 'PT0.005S'");
    assertThat(failure("once.outbox.relay.lease=2d"))
        .contains("once.outbox.relay.lease: must be 1s to 24h, but was 'PT48H'");
  }

  @Test
  void badRetryFieldsAreRefusedByTheirFullName() {
    assertThat(failure("once.outbox.relay.types[payment.succeeded].jitter=2.0"))
        .contains("once.outbox.relay.types[payment.succeeded].jitter: must be 0.0 to 1.0")
        .contains("but was '2.0'");
    assertThat(failure("once.outbox.relay.retry.max-delay=10ms"))
        .contains(
            "once.outbox.relay.retry.max-delay: must be at least the initial-delay (1s), but was"
                + " 'PT0.01S'");
    assertThat(failure("once.outbox.relay.retry.handler-timeout=5s"))
        .contains(
            "once.outbox.relay.retry.handler-timeout: is not a retry setting: use"
                + " once.outbox.relay.handler-timeout");
    assertThat(failure("once.outbox.relay.types[provider.charge].handler-timeout=1ms"))
        .contains("once.outbox.relay.types[provider.charge].handler-timeout: must be 10ms to 24h");
  }

  @Test
  void aTypesPolicyOverridesOnlyTheFieldsItSets() {
    OnceProperties p =
        bind(
            "once.outbox.relay.retry.initial-delay=2s",
            "once.outbox.relay.types[provider.charge].max-attempts=3");

    RetryPolicy policy = OutboxSettings.typePolicies(p.outbox().relay()).get("provider.charge");

    assertThat(policy.maxAttempts()).isEqualTo(3);
    assertThat(policy.initialDelay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.maxDelay()).isEqualTo(RetryPolicy.DEFAULT.maxDelay());
  }

  @Test
  void anInboxRetentionShorterThanARetrySpanIsRefusedNamingBoth() {
    assertThat(
            failure(
                "once.inbox.retention=1h",
                "once.outbox.relay.types[provider.charge].max-attempts=30"))
        .contains("once.inbox.retention: must be longer than the longest retry span of")
        .contains("once.outbox.relay.types[provider.charge]")
        .contains("but was 'PT1H'");

    bind("once.inbox.retention=1d", "once.outbox.relay.types[provider.charge].max-attempts=30");
  }

  @Test
  void badInboxPurgeSettingsAreRefusedByName() {
    assertThat(failure("once.inbox.purge.batch-size=0"))
        .contains("once.inbox.purge.batch-size: must be 1 to 100000, but was '0'");
  }

  @Test
  void theArchiveIsOffByDefaultAndItsSettingsAreRefusedByName() {
    OnceProperties.Archive archive = bind().outbox().archive();
    assertThat(archive.enabled()).isFalse();
    assertThat(archive.mode()).isNull();
    assertThat(bind("once.outbox.archive.enabled=true").outbox().archive().mode())
        .isEqualTo(new dev.once.postgres.OutboxArchive(30, 7));

    assertThat(failure("once.outbox.archive.retention=36h"))
        .contains("once.outbox.archive.retention: must be whole days, e.g. 30d");
    assertThat(failure("once.outbox.archive.retention=12h"))
        .contains("once.outbox.archive.retention: must be 24h to 3650d, but was 'PT12H'");
    assertThat(failure("once.outbox.archive.days-ahead=32"))
        .contains("once.outbox.archive.days-ahead: must be 1 to 31, but was '32'");
    assertThat(failure("once.outbox.relay.paused-types[0]= "))
        .contains("once.outbox.relay.paused-types[0]: must not be blank");
  }

  @Test
  void loadSheddingIsOffByDefaultAndItsDurationsAreRefusedByNameAndValue() {
    OnceProperties.LoadShedding shedding = bind().outbox().loadShedding();
    assertThat(shedding.enabled()).isFalse();
    assertThat(shedding.maxDueAge()).isEqualTo(Duration.ofSeconds(5));
    assertThat(shedding.sampleInterval()).isEqualTo(Duration.ofMillis(250));

    assertThat(failure("once.outbox.load-shedding.max-due-age=50ms"))
        .contains("once.outbox.load-shedding.max-due-age: must be 100ms to 24h, but was 'PT0.05S'");

    // An empty value binds the default; a record built with no value is refused.
    assertThat(bind("once.outbox.load-shedding.max-due-age=").outbox().loadShedding().maxDueAge())
        .isEqualTo(Duration.ofSeconds(5));
    try (ValidatorFactory factory = Validation.buildDefaultValidatorFactory()) {
      assertThat(
              factory
                  .getValidator()
                  .validate(new OnceProperties.LoadShedding(true, null, Duration.ofMillis(250))))
          .singleElement()
          .satisfies(
              v -> {
                assertThat(v.getPropertyPath()).hasToString("maxDueAge");
                assertThat(v.getMessage()).isEqualTo("must be 100ms to 24h");
                assertThat(v.getInvalidValue()).isNull();
              });
    }

    assertThat(failure("once.outbox.load-shedding.sample-interval=1ms"))
        .contains("once.outbox.load-shedding.sample-interval")
        .contains("'PT0.001S'");

    assertThat(
            failure(
                "once.outbox.load-shedding.max-due-age=1s",
                "once.outbox.load-shedding.sample-interval=2s"))
        .isEqualTo(
            "once.outbox.load-shedding.sample-interval: must be at most max-due-age (1s), but was"
                + " 'PT2S'");
  }
}
