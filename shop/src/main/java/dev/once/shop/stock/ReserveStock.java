package dev.once.shop.stock;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.OrderPlaced;
import dev.once.spring.events.OnceEvents;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #NAME}: reserves the lines of every placed order, all or none, and publishes
 * {@value ShopEvents#STOCK_RESERVED} or {@value ShopEvents#STOCK_REJECTED}, in the inbox's
 * transaction. The inbox applies each event once; the reservation rows' unique key makes even a
 * second event for the same order change no stock. A batch of placements (a claim's rows, a poll's
 * records) is one transaction that locks the batch's products once, in (client, sku) order, then
 * reserves its orders in delivery order ({@link StockService#reserveAll}): the same outcomes and
 * events as one placement after the other, and no deadlock with a concurrent batch.
 */
@Component
class ReserveStock extends StockConsumer<OrderPlaced> {
  static final String NAME = "reserve-stock";

  private final StockService stock;

  ReserveStock(StockService stock, OnceEvents events) {
    super(NAME, OrderPlaced.class, ShopEvents.ORDER_PLACED, events);
    this.stock = stock;
  }

  @Override
  void apply(OrderPlaced order) {
    stock.reserve(order.clientId(), order.orderId(), order.items());
  }

  @Override
  void applyAll(List<OrderPlaced> orders) {
    stock.reserveAll(orders);
  }
}
