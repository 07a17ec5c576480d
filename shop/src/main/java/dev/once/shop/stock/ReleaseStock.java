package dev.once.shop.stock;

import dev.once.shop.events.ShopEvents.OrderCancelled;
import dev.once.spring.events.OnceListener;
import org.springframework.stereotype.Component;

/**
 * Consumer {@value #NAME}: gives back the units a cancelled order holds, exactly once, in the
 * inbox's transaction. A cancellation delivered twice, or after the order's reservation was already
 * released, changes no stock; one delivered before the reservation keeps it from ever happening.
 */
@Component
class ReleaseStock {
  static final String NAME = "release-stock";

  private final StockService stock;

  ReleaseStock(StockService stock) {
    this.stock = stock;
  }

  @OnceListener(consumer = NAME)
  void on(OrderCancelled order) {
    stock.release(order.clientId(), order.orderId(), order.items());
  }
}
