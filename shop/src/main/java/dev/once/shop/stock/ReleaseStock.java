package dev.once.shop.stock;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.OrderCancelled;
import java.sql.Connection;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Inbox consumer {@value #NAME}: gives back the units a cancelled order holds, exactly once, in the
 * inbox's transaction. A cancellation delivered twice, or after the order's reservation was already
 * released, changes no stock; one delivered before the reservation keeps it from ever happening.
 */
@Component
class ReleaseStock implements InboxConsumer {
  static final String NAME = "release-stock";

  private final StockService stock;
  private final JsonMapper json;

  ReleaseStock(StockService stock, JsonMapper json) {
    this.stock = stock;
    this.json = json;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<String> types() {
    return Set.of(ShopEvents.ORDER_CANCELLED);
  }

  @Override
  public void consume(Connection tx, InboxMessage message) {
    OrderCancelled order = json.readValue(message.payloadJson(), OrderCancelled.class);
    stock.release(order.clientId(), order.orderId(), order.items());
  }
}
