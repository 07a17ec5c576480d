package dev.once.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The defaults are written once, here, as a properties file writes them: the builder reads them
 * with {@link RelayLimits#duration}, the starter's properties take the same text.
 */
class RelayLimitsTest {

  @Test
  void aDefaultReadsAsThePropertiesFileWritesIt() {
    assertThat(RelayLimits.duration("5ms")).isEqualTo(Duration.ofMillis(5));
    assertThat(RelayLimits.duration("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(RelayLimits.duration("1m")).isEqualTo(Duration.ofMinutes(1));
    assertThat(RelayLimits.duration("24h")).isEqualTo(Duration.ofHours(24));
    assertThat(RelayLimits.duration("7d")).isEqualTo(Duration.ofDays(7));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "10", "s", "1.5s", "-1s", "10 s", "PT10S", "10sec"})
  void anythingElseIsRefused(String text) {
    assertThatThrownBy(() -> RelayLimits.duration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(text);
  }

  @Test
  void theBuilderStartsFromTheDefaults() {
    OutboxRelay.Builder builder = OutboxRelay.builder(new DelegatingStore(null));
    assertThat(builder.workers).isEqualTo(RelayLimits.DEFAULT_WORKERS);
    assertThat(builder.lease).isEqualTo(Duration.ofSeconds(10));
    assertThat(builder.handlerTimeout).isEqualTo(Duration.ofSeconds(30));
    assertThat(builder.claimCoalescing).isEqualTo(Duration.ofMillis(5));
    assertThat(builder.deliveredRetention).isEqualTo(Duration.ofMinutes(1));
  }
}
