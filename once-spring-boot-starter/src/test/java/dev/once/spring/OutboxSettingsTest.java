package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The relay's and the inbox's settings are refused by name and value; per-type retry overrides. */
class OutboxSettingsTest {

  @Test
  void defaultsAreValidAndTheDefaultPolicyIsTheCoresDefault() {
    OnceProperties p = new OnceProperties();
    p.validate();
    assertThat(OutboxSettings.defaultPolicy(p.getOutbox().getRelay()))
        .isEqualTo(RetryPolicy.DEFAULT);
  }

  @Test
  void badRelaySettingsAreRefusedByNameAndValue() {
    OnceProperties workers = new OnceProperties();
    workers.getOutbox().getRelay().setWorkers(0);
    assertThatThrownBy(workers::validate)
        .hasMessageContaining("once.outbox.relay.workers")
        .hasMessageContaining("'0'");

    OnceProperties poll = new OnceProperties();
    poll.getOutbox().getRelay().setPollInterval(Duration.ofMillis(5));
    assertThatThrownBy(poll::validate)
        .hasMessageContaining("once.outbox.relay.poll-interval")
        .hasMessageContaining("PT0.005S");

    OnceProperties lease = new OnceProperties();
    lease.getOutbox().getRelay().setLease(Duration.ofDays(2));
    assertThatThrownBy(lease::validate)
        .hasMessageContaining("once.outbox.relay.lease")
        .hasMessageContaining("PT48H");
  }

  @Test
  void badRetryFieldsAreRefusedByTheirFullName() {
    OnceProperties jitter = new OnceProperties();
    OnceProperties.Retry retry = new OnceProperties.Retry();
    retry.setJitter(2.0);
    jitter.getOutbox().getRelay().getTypes().put("payment.succeeded", retry);
    assertThatThrownBy(jitter::validate)
        .hasMessageContaining("once.outbox.relay.types[payment.succeeded].jitter")
        .hasMessageContaining("'2.0'");

    OnceProperties maxDelay = new OnceProperties();
    maxDelay.getOutbox().getRelay().getRetry().setMaxDelay(Duration.ofMillis(10));
    assertThatThrownBy(maxDelay::validate)
        .hasMessageContaining("once.outbox.relay.retry.max-delay")
        .hasMessageContaining("PT0.01S");
  }

  @Test
  void aTypesPolicyOverridesOnlyTheFieldsItSets() {
    OnceProperties p = new OnceProperties();
    p.getOutbox().getRelay().getRetry().setInitialDelay(Duration.ofSeconds(2));
    OnceProperties.Retry override = new OnceProperties.Retry();
    override.setMaxAttempts(3);
    p.getOutbox().getRelay().getTypes().put("provider.charge", override);

    RetryPolicy policy =
        OutboxSettings.typePolicies(p.getOutbox().getRelay()).get("provider.charge");

    assertThat(policy.maxAttempts()).isEqualTo(3);
    assertThat(policy.initialDelay()).isEqualTo(Duration.ofSeconds(2));
    assertThat(policy.maxDelay()).isEqualTo(RetryPolicy.DEFAULT.maxDelay());
  }

  @Test
  void anInboxRetentionShorterThanARetrySpanIsRefusedNamingBoth() {
    OnceProperties p = new OnceProperties();
    p.getInbox().setRetention(Duration.ofHours(1));
    OnceProperties.Retry slow = new OnceProperties.Retry();
    slow.setMaxAttempts(30);
    p.getOutbox().getRelay().getTypes().put("provider.charge", slow);

    assertThatThrownBy(p::validate)
        .hasMessageContaining("once.inbox.retention (PT1H)")
        .hasMessageContaining("once.outbox.relay.types[provider.charge]");

    p.getInbox().setRetention(Duration.ofDays(1));
    p.validate();
  }

  @Test
  void badInboxPurgeSettingsAreRefusedByName() {
    OnceProperties p = new OnceProperties();
    p.getInbox().getPurge().setBatchSize(0);
    assertThatThrownBy(p::validate).hasMessageContaining("once.inbox.purge.batch-size");
  }

  @Test
  void loadSheddingIsOffByDefaultAndItsDurationsAreRefusedByNameAndValue() {
    OnceProperties defaults = new OnceProperties();
    OnceProperties.LoadShedding shedding = defaults.getOutbox().getLoadShedding();
    assertThat(shedding.isEnabled()).isFalse();
    assertThat(shedding.getMaxDueAge()).isEqualTo(Duration.ofSeconds(5));
    assertThat(shedding.getSampleInterval()).isEqualTo(Duration.ofMillis(250));

    OnceProperties age = new OnceProperties();
    age.getOutbox().getLoadShedding().setMaxDueAge(Duration.ofMillis(50));
    assertThatThrownBy(age::validate)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid configuration: once.outbox.load-shedding.max-due-age must be PT0.1S to PT24H,"
                + " but was 'PT0.05S'.");

    OnceProperties none = new OnceProperties();
    none.getOutbox().getLoadShedding().setMaxDueAge(null);
    assertThatThrownBy(none::validate)
        .hasMessageContaining("once.outbox.load-shedding.max-due-age")
        .hasMessageContaining("'null'");

    OnceProperties interval = new OnceProperties();
    interval.getOutbox().getLoadShedding().setSampleInterval(Duration.ofMillis(1));
    assertThatThrownBy(interval::validate)
        .hasMessageContaining("once.outbox.load-shedding.sample-interval")
        .hasMessageContaining("'PT0.001S'");

    OnceProperties slower = new OnceProperties();
    slower.getOutbox().getLoadShedding().setMaxDueAge(Duration.ofSeconds(1));
    slower.getOutbox().getLoadShedding().setSampleInterval(Duration.ofSeconds(2));
    assertThatThrownBy(slower::validate)
        .hasMessage(
            "Invalid configuration: once.outbox.load-shedding.sample-interval must be at most"
                + " max-due-age PT1S, but was 'PT2S'.");
  }
}
