package dev.once.shop.provider;

import io.micrometer.observation.ObservationRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider client, on {@code shop.provider.url}; when that is empty, on the {@link
 * ProviderEndpoint} that a development default supplies (the in-process PSP simulator).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProviderProperties.class)
class ProviderConfiguration {
  private static final Logger log = LoggerFactory.getLogger(ProviderConfiguration.class);

  /**
   * The HTTP client of the provider calls, a bean of its own so that it is configured in one place.
   */
  @Bean
  HttpClient providerHttpClient(ProviderProperties properties) {
    return ProviderClient.http(properties.connectTimeout());
  }

  @Bean
  ProviderClient providerClient(
      ProviderProperties properties,
      ObjectProvider<ProviderEndpoint> development,
      @Qualifier("providerHttpClient") HttpClient http,
      JsonMapper json,
      ObjectProvider<ObservationRegistry> observations) {
    URI base;
    if (properties.url() != null) {
      base = properties.url();
      // Scheme, host and port only: a URL may carry credentials or tokens in its other parts.
      log.info(
          "Payment provider at {}://{}{} (shop.provider.url).",
          base.getScheme(),
          base.getHost(),
          base.getPort() < 0 ? "" : ":" + base.getPort());
    } else {
      ProviderEndpoint endpoint = development.getIfAvailable();
      if (endpoint == null) {
        throw new IllegalStateException(
            "Invalid configuration: shop.provider.url (SHOP_PROVIDER_URL) is not set and no"
                + " development default supplies a provider.");
      }
      base = endpoint.baseUri();
    }
    return new ProviderClient(
        ProviderClient.client(http, properties.readTimeout(), properties.deadline()),
        base,
        json,
        observations.getIfAvailable(() -> ObservationRegistry.NOOP));
  }
}
