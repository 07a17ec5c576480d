package dev.once.spring.events;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a Spring bean as an event listener, applied exactly once per {@link
 * #consumer()} through the inbox: {@code void on(OrderPlaced event)}, or {@code void on(OrderPlaced
 * event, EventMetadata metadata)}, where the first parameter is an {@link OnceEvent} record. The
 * starter registers every consumer as an {@link dev.once.inbox.InboxConsumer} bean (named {@code
 * onceListener:<consumer>}), so the in-process transport and {@code once-kafka} deliver to it like
 * to any other consumer.
 *
 * <p>Guarantees: the method runs in the inbox's transaction (a Spring transaction that {@code
 * JdbcClient}, {@code JdbcTemplate} and {@code @Transactional} services with the default
 * propagation join), together with the inbox record of {@code (message id, consumer)}: its writes
 * and the record commit together or not at all, and a redelivery of a committed event does not call
 * it again. Throwing rolls both back, and the transport delivers the event again (then, after its
 * attempts, dead-letters it). An event that cannot be read into the record (not a JSON object, a
 * version newer than the record's, an older one without the {@link EventUpcaster}s up to the
 * record's version, a payload the record refuses) throws before the method is called, the same way.
 *
 * <p>Several methods may share a consumer, in one bean or several, as long as they take different
 * event types: together they are one consumer (one consumer group with Kafka). Two methods of one
 * consumer for the same event type fail the application's start. Put the methods on beans declared
 * in the application's own configuration or component scan; on a bean proxied with CGLIB (a
 * {@code @Transactional} class) the method must be public.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnceListener {
  /**
   * The consumer's stable name, 1 to 200 characters, e.g. {@code reserve-stock}: the second half of
   * the inbox's dedup key, and the Kafka consumer group after its prefix. Renaming a consumer makes
   * every event new to it.
   */
  String consumer();

  /**
   * Whether the inbox may apply several events to this consumer in one transaction: the batch path
   * of the Kafka listeners (a poll's records of a partition) and of the in-process transport (a
   * claim's rows of a type), one commit per batch instead of one per event. The effect of each
   * event is the same as alone, exactly once: its inbox record commits with it, and a batch that
   * fails is rolled back and applied again one event at a time, so a poison event fails alone.
   * Default {@code true}: a listener whose effect lives in the transaction (it writes through the
   * application's data source) needs no change. Set it to {@code false} for a listener that also
   * reaches outside the transaction (calls a service, sends mail): a batch rolled back by another
   * event's failure would repeat that call. The methods of one consumer name batch only if all of
   * them allow it.
   */
  boolean batch() default true;
}
