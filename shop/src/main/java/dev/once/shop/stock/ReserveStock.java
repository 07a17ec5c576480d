package dev.once.shop.stock;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.OrderPlaced;
import dev.once.spring.events.OnceListener;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #NAME}: reserves the lines of every placed order, all or none, and publishes
 * {@value ShopEvents#STOCK_RESERVED} or {@value ShopEvents#STOCK_REJECTED}, in the inbox's
 * transaction. The inbox applies each event once; the reservation rows' unique key makes even a
 * second event for the same order change no stock.
 */
@Component
class ReserveStock {
  static final String NAME = "reserve-stock";

  private final StockService stock;

  ReserveStock(StockService stock) {
    this.stock = stock;
  }

  @OnceListener(consumer = NAME)
  void on(OrderPlaced order) {
    stock.reserve(order.clientId(), order.orderId(), order.items());
  }
}
