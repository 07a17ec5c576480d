package dev.once.shop.provider;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The payment provider, under {@code shop.provider}.
 *
 * @param url base URL of the provider ({@code SHOP_PROVIDER_URL}); when empty the shop starts the
 *     PSP simulator in-process on a free local port
 * @param connectTimeout longest wait for a TCP connection to the provider
 * @param readTimeout longest wait for the provider's answer to one request; it must be shorter than
 *     the provider types' handler time-out ({@code
 *     once.outbox.relay.types[provider.charge].handler-timeout})
 * @param deadline longest time of one provider call, all its attempts and waits together
 *     (once-client retries time-outs, lost answers, 5xx and 409s within it under the same key); it
 *     must be shorter than the provider types' handler time-out, so that a call still without an
 *     answer ends as {@link ProviderAnswer.Unavailable} and the relay tries again later
 */
@ConfigurationProperties("shop.provider")
public record ProviderProperties(
    URI url,
    @DefaultValue("2s") Duration connectTimeout,
    @DefaultValue("5s") Duration readTimeout,
    @DefaultValue("10s") Duration deadline) {

  public ProviderProperties {
    if (url != null && url.toString().isEmpty()) {
      url = null;
    }
    if (url != null
        && (!("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
            || url.getHost() == null)) {
      throw new IllegalArgumentException(
          "Invalid configuration: shop.provider.url must be an http or https URL with a host, but"
              + " was '"
              + url
              + "'.");
    }
    requireBetween("shop.provider.connect-timeout", connectTimeout);
    requireBetween("shop.provider.read-timeout", readTimeout);
    requireBetween("shop.provider.deadline", deadline);
  }

  private static void requireBetween(String name, Duration value) {
    if (value == null
        || value.compareTo(Duration.ofMillis(1)) < 0
        || value.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException(
          "Invalid configuration: " + name + " must be 1ms to 10m, but was '" + value + "'.");
    }
  }
}
