/**
 * {@code kafka}: a single-node KRaft broker from Kafka's own jars, for development and for {@code
 * chaos --kafka}. It prints a ready line only when the broker accepts clients.
 */
package dev.once.verify.kafka;
