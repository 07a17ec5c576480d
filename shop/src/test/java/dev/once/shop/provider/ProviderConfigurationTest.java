package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider client starts on {@code shop.provider.url} or on the development default's {@link
 * ProviderEndpoint}; without either, the start stops naming the setting.
 */
class ProviderConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withUserConfiguration(ProviderConfiguration.class)
          .withBean(JsonMapper.class, () -> JsonMapper.builder().build());

  @Test
  void withNeitherAUrlNorAnEndpointTheStartStopsNamingTheSetting() {
    runner.run(
        context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .rootCause()
              .hasMessageContaining("shop.provider.url (SHOP_PROVIDER_URL) is not set");
        });
  }

  @Test
  void eitherAUrlOrADevelopmentEndpointIsEnough() {
    ProviderEndpoint endpoint = () -> URI.create("http://127.0.0.1:1");
    runner
        .withBean(ProviderEndpoint.class, () -> endpoint)
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ProviderClient.class));
    runner
        .withPropertyValues("shop.provider.url=https://psp.example.com")
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ProviderClient.class));
  }
}
