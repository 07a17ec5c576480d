package dev.once.shop.provider;

import dev.once.psp.Faults;
import dev.once.psp.PspSimulator;
import dev.once.shop.broken.BrokenMode;
import dev.once.shop.support.ShopIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Base of the tests that run the whole shop with its relay on, with short delays, against the
 * in-process PSP simulator; a subclass adds its own settings with {@code @TestPropertySource}. The
 * context is closed after the class, so its relay (and any {@link BrokenMode}) does not outlive it
 * into other tests; the simulator's faults and hook are reset after each test.
 */
@TestPropertySource(
    properties = {
      "once.outbox.relay.enabled=true",
      "once.outbox.relay.poll-interval=100ms",
      "once.outbox.relay.retry.initial-delay=10ms",
      "once.outbox.relay.retry.max-delay=100ms"
    })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class RelayingShopTest extends ShopIntegrationTest {
  /** The provider the shop calls. */
  @Autowired protected PspSimulator provider;

  @AfterEach
  void noFaults() {
    provider.faults(Faults.NONE);
    provider.afterApply(reference -> {});
  }
}
