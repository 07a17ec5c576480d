package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A bad provider setting stops the start with a message naming the property and the value. */
class ProviderPropertiesTest {
  private static final Duration TWO = Duration.ofSeconds(2);

  @Test
  void anEmptyUrlMeansTheInProcessSimulator() {
    assertThat(new ProviderProperties(URI.create(""), TWO, TWO, TWO).url()).isNull();
    assertThat(new ProviderProperties(null, TWO, TWO, TWO).url()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://psp.example:9090", "https://psp.example/api/"})
  void anHttpOrHttpsUrlWithAHostIsTaken(String url) {
    assertThat(new ProviderProperties(URI.create(url), TWO, TWO, TWO).url()).hasToString(url);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://psp.example", "psp.example:9090", "/v1", "http:///v1", "file:/x"})
  void anythingElseIsRefusedByName(String url) {
    assertThatThrownBy(() -> new ProviderProperties(URI.create(url), TWO, TWO, TWO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shop.provider.url")
        .hasMessageContaining(url);
  }

  @Test
  void timeOutsMustBeFromOneMillisecondToTenMinutes() {
    assertThatThrownBy(() -> new ProviderProperties(null, Duration.ZERO, TWO, TWO))
        .hasMessageContaining("shop.provider.connect-timeout");
    assertThatThrownBy(() -> new ProviderProperties(null, TWO, Duration.ofMinutes(11), TWO))
        .hasMessageContaining("shop.provider.read-timeout");
    assertThatThrownBy(() -> new ProviderProperties(null, TWO, null, TWO))
        .hasMessageContaining("shop.provider.read-timeout");
    assertThatThrownBy(() -> new ProviderProperties(null, TWO, TWO, Duration.ofMillis(-1)))
        .hasMessage(
            "Invalid configuration: shop.provider.deadline must be 1ms to 10m, but was 'PT-0.001S'.");
  }
}
