package dev.once.shop.provider;

import java.net.URI;

/**
 * Where the payment provider answers when {@code shop.provider.url} is not set: a bean that a
 * development default supplies (the in-process PSP simulator of {@code dev.once.shop.development}).
 */
@FunctionalInterface
public interface ProviderEndpoint {
  /** The provider's base URL, e.g. {@code http://127.0.0.1:41234}. */
  URI baseUri();
}
