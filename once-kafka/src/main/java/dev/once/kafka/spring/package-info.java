/**
 * Spring Boot auto-configuration of the Kafka transport on Spring for Apache Kafka: the relay's
 * publisher, one listener container (consumer group) per inbox consumer with retries and a
 * dead-letter topic, topic creation, and metrics. Configured by {@code once.kafka.*} and Boot's
 * {@code spring.kafka.*}.
 */
package dev.once.kafka.spring;
