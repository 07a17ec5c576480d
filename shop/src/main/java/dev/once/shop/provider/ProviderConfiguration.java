package dev.once.shop.provider;

import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import java.net.URI;
import java.net.http.HttpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * The provider client, on {@code shop.provider.url}; when that is empty, on a PSP simulator started
 * in-process on a free local port (so the README's run command needs nothing else), and stopped
 * with the application.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProviderProperties.class)
class ProviderConfiguration {
  private static final Logger log = LoggerFactory.getLogger(ProviderConfiguration.class);

  @Bean(destroyMethod = "close")
  @ConditionalOnExpression("'${shop.provider.url:}'.isEmpty()")
  PspSimulator inProcessProvider() {
    PspSimulator simulator = PspSimulator.start(PspSettings.defaults());
    log.info(
        "No shop.provider.url (SHOP_PROVIDER_URL) is set: the PSP simulator runs in-process at {}.",
        simulator.baseUri());
    return simulator;
  }

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
      ObjectProvider<PspSimulator> inProcess,
      @Qualifier("providerHttpClient") HttpClient http,
      JsonMapper json) {
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
      base = inProcess.getObject().baseUri();
    }
    return new ProviderClient(http, base, properties.readTimeout(), json);
  }
}
