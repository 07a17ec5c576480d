package dev.once.shop.stock;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.events.ShopEvents.OrderCancelled;
import dev.once.spring.events.OnceEvents;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #NAME}: gives back the units a cancelled order holds, exactly once, in the
 * inbox's transaction. A cancellation delivered twice, or after the order's reservation was already
 * released, changes no stock; one delivered before the reservation keeps it from ever happening. A
 * batch of cancellations locks its products once, in (client, sku) order, as {@link ReserveStock}
 * does ({@link StockService#releaseAll}).
 */
@Component
class ReleaseStock extends StockConsumer<OrderCancelled> {
  static final String NAME = "release-stock";

  private final StockService stock;

  ReleaseStock(StockService stock, OnceEvents events) {
    super(NAME, OrderCancelled.class, ShopEvents.ORDER_CANCELLED, events);
    this.stock = stock;
  }

  @Override
  void apply(OrderCancelled order) {
    stock.release(order.clientId(), order.orderId(), order.items());
  }

  @Override
  void applyAll(List<OrderCancelled> orders) {
    stock.releaseAll(orders);
  }
}
