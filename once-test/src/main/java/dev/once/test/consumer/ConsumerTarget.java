package dev.once.test.consumer;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.test.faults.InjectedFault;
import java.sql.Connection;
import java.util.Objects;
import java.util.Set;

/**
 * A consumer as a transport reaches it: what {@link ConsumerAssert} delivers messages to. {@link
 * #throughInbox} is the usual one, the consumer behind Once's {@link Inbox}; implement it yourself
 * to test another way of consuming (your own dedup, a listener container).
 */
public interface ConsumerTarget {

  /** The consumer's name, for the failure message. */
  String name();

  /**
   * One delivery of {@code message}, as a transport makes it: returns when it committed, throws if
   * it did not (the transport would deliver it again).
   */
  void deliver(InboxMessage message) throws Exception;

  /**
   * One delivery of {@code message} in which the consumer applies its effect and its transaction is
   * then made to fail before it commits (by throwing {@link InjectedFault} after the consumer
   * returned). May throw the {@link InjectedFault}; the kit expects it.
   */
  void deliverFailingMidEffect(InboxMessage message) throws Exception;

  /**
   * {@code consumer} behind {@code inbox}: a delivery is {@link Inbox#deliver(InboxConsumer,
   * InboxMessage)}; a delivery failing mid-effect runs the consumer in the inbox's transaction,
   * then throws {@link InjectedFault} in it, so the inbox rolls back the record and the effect
   * together.
   */
  static ConsumerTarget throughInbox(Inbox inbox, InboxConsumer consumer) {
    Objects.requireNonNull(inbox, "inbox");
    Objects.requireNonNull(consumer, "consumer");
    return new ConsumerTarget() {
      @Override
      public String name() {
        return consumer.name();
      }

      @Override
      public void deliver(InboxMessage message) throws Exception {
        inbox.deliver(consumer, message);
      }

      @Override
      public void deliverFailingMidEffect(InboxMessage message) throws Exception {
        inbox.deliver(failingAfterConsume(consumer), message);
      }

      @Override
      public String toString() {
        return "consumer " + consumer.name() + " through the inbox";
      }
    };
  }

  /** {@code consumer} under its own name, throwing in its transaction after it consumed. */
  private static InboxConsumer failingAfterConsume(InboxConsumer consumer) {
    return new InboxConsumer() {
      @Override
      public String name() {
        return consumer.name();
      }

      @Override
      public Set<String> types() {
        return consumer.types();
      }

      @Override
      public void consume(Connection tx, InboxMessage message) throws Exception {
        consumer.consume(tx, message);
        throw new InjectedFault("after the consumer's effect, before its transaction's commit");
      }
    };
  }
}
