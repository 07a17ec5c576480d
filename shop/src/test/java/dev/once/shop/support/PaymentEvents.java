package dev.once.shop.support;

import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import java.sql.Connection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.test.context.TestComponent;

/**
 * A consumer of the shop's payment events, as the orders module will be one: with it in the test
 * context the shop writes its events, and the relay (where a test runs one) delivers them here
 * through the inbox. Records what it consumed, in order.
 */
@TestComponent
public class PaymentEvents implements InboxConsumer {
  private final ConcurrentLinkedQueue<InboxMessage> consumed = new ConcurrentLinkedQueue<>();

  @Override
  public String name() {
    return "test-payment-events";
  }

  @Override
  public Set<String> types() {
    return Set.of("payment.succeeded", "payment.failed");
  }

  @Override
  public void consume(Connection tx, InboxMessage message) {
    consumed.add(message);
  }

  /** The events consumed for one payment, by type, in the order consumed. */
  public List<String> of(String paymentId) {
    return consumed.stream()
        .filter(message -> message.aggregateId().equals(paymentId))
        .map(InboxMessage::type)
        .toList();
  }
}
