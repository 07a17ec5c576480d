/**
 * Kafka as Once's event transport, plain Java on {@code kafka-clients}: {@link
 * dev.once.kafka.KafkaEventPublisher} is the relay's handler that publishes outbox events, and
 * {@link dev.once.kafka.InboxRecords} applies consumed records through the inbox. Events are at
 * least once on the wire and once in effect: the inbox dedups on the message id every record
 * carries ({@link dev.once.kafka.OnceHeaders}). A record also carries the W3C trace context of its
 * outbox row's delivery, when there is one, and a consumed record hands it on to the inbox ({@code
 * dev.once.tracing.TraceContext}; a malformed one is ignored).
 */
package dev.once.kafka;
