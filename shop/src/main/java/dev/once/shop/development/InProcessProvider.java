package dev.once.shop.development;

import dev.once.psp.PspSettings;
import dev.once.psp.PspSimulator;
import dev.once.shop.provider.ProviderEndpoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The development default of the payment provider: with no {@code shop.provider.url} ({@code
 * SHOP_PROVIDER_URL}), a PSP simulator started in-process on a free local port, so that the
 * README's run command needs nothing else; stopped with the application. With a URL, nothing here
 * runs.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${shop.provider.url:}'.isEmpty()")
class InProcessProvider {
  private static final Logger log = LoggerFactory.getLogger(InProcessProvider.class);

  @Bean(destroyMethod = "close")
  PspSimulator inProcessSimulator() {
    PspSimulator simulator = PspSimulator.start(PspSettings.defaults());
    log.info(
        "No shop.provider.url (SHOP_PROVIDER_URL) is set: the PSP simulator runs in-process at {}.",
        simulator.baseUri());
    return simulator;
  }

  @Bean
  ProviderEndpoint inProcessProviderEndpoint(PspSimulator simulator) {
    return simulator::baseUri;
  }
}
