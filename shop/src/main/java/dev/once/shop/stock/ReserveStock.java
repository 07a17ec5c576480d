package dev.once.shop.stock;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.OrderPlaced;
import java.sql.Connection;
import java.util.Set;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Inbox consumer {@value #NAME}: reserves the lines of every placed order, all or none, and
 * publishes {@value ShopEvents#STOCK_RESERVED} or {@value ShopEvents#STOCK_REJECTED}, in the
 * inbox's transaction. The inbox applies each message once; the reservation rows' unique key makes
 * even a second message for the same order change no stock.
 */
@Component
class ReserveStock implements InboxConsumer {
  static final String NAME = "reserve-stock";

  private final StockService stock;
  private final JsonMapper json;

  ReserveStock(StockService stock, JsonMapper json) {
    this.stock = stock;
    this.json = json;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<String> types() {
    return Set.of(ShopEvents.ORDER_PLACED);
  }

  @Override
  public void consume(Connection tx, InboxMessage message) {
    OrderPlaced order = json.readValue(message.payloadJson(), OrderPlaced.class);
    stock.reserve(order.clientId(), order.orderId(), order.items());
  }
}
