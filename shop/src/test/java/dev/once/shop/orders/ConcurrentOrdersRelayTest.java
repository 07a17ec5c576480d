package dev.once.shop.orders;

import dev.once.shop.provider.RelayingShopTest;
import dev.once.shop.support.ConcurrentOrders;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link ConcurrentOrders} through the relay's in-process transport: the relay hands a claim's
 * {@code order.placed} rows to {@code reserve-stock} in one inbox transaction, which locks the
 * batch's products once, in one order, so concurrent batches whose orders share products neither
 * deadlock nor decide differently than one placement after the other would.
 */
@TestPropertySource(
    properties = {
      // Delivered rows kept, so that the test counts the decisions published per order.
      "once.outbox.relay.delivered-retention=10m",
      // Fifty orders at once on a busy machine must not be shed: the test is about their outcome.
      "once.outbox.load-shedding.enabled=false"
    })
@Timeout(300)
class ConcurrentOrdersRelayTest extends RelayingShopTest {

  @Test
  void fiftyConcurrentOrdersOnSixProductsAreEachDecidedOnceWithoutDeadlock() throws Exception {
    ConcurrentOrders.placeAndCheck(newClient(), jdbc, "REL", Duration.ofSeconds(120));
  }
}
