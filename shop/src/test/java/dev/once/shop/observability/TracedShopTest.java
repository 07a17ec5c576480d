package dev.once.shop.observability;

import dev.once.shop.provider.RelayingShopTest;
import org.springframework.context.annotation.Import;

/**
 * Base of the tests of the shop's telemetry: the whole shop with its relay on, as {@link
 * RelayingShopTest} runs it, every span it ends kept by {@link SpanCapture}.
 */
@Import(SpanCapture.class)
abstract class TracedShopTest extends RelayingShopTest {}
