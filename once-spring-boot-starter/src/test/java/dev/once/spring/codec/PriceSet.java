package dev.once.spring.codec;

import dev.once.spring.events.OnceEvent;

/**
 * An event of {@code EventCodecTest}, in a package of its own so that the typed-events test
 * application's scan of {@code dev.once.spring.events} does not find it. Version 3; version 1 was
 * {@code {"sku"}}, version 2 {@code {"sku", "cents"}}.
 */
@OnceEvent(name = PriceSet.NAME, version = 3)
public record PriceSet(String sku, int cents, String currency) {
  public static final String NAME = "test.price.set";
}
