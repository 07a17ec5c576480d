package dev.once.kafka.spring;

import dev.once.kafka.Utf8ValueDeserializer;
import dev.once.postgres.WalFlush;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Once's own Kafka clients, on the application's {@code spring.kafka.*} connection settings: one
 * idempotent producer ({@code acks=all}) shared by the relay's publisher and the dead-letter
 * recoverer, and the consumers of the inbox listeners (offsets committed by the listeners only,
 * after the database commit, and only once a WAL flush made it durable: {@link DurableOffsets}).
 * They are not beans of Spring Kafka's types, so an application's own {@code KafkaTemplate} and
 * factories are left as they are.
 */
final class KafkaClients implements DisposableBean {
  private final DefaultKafkaProducerFactory<String, String> producers;
  private final KafkaTemplate<String, String> template;
  private final DefaultKafkaConsumerFactory<String, String> consumers;

  KafkaClients(KafkaProperties kafka, OnceKafkaProperties once, WalFlush durable) {
    this.producers = new DefaultKafkaProducerFactory<>(producerConfig(kafka, once));
    this.template = new KafkaTemplate<>(producers);
    this.consumers = new DefaultKafkaConsumerFactory<>(consumerConfig(kafka));
    this.consumers.addPostProcessor(consumer -> DurableOffsets.wrap(consumer, durable));
  }

  DefaultKafkaProducerFactory<String, String> producers() {
    return producers;
  }

  KafkaTemplate<String, String> template() {
    return template;
  }

  DefaultKafkaConsumerFactory<String, String> consumers() {
    return consumers;
  }

  /**
   * The application's producer settings with what Once's guarantees need: {@code acks=all}, the
   * idempotent producer, and time-outs that end a send within the send time-out.
   *
   * @throws IllegalStateException if the application's settings contradict those guarantees
   */
  static Map<String, Object> producerConfig(KafkaProperties kafka, OnceKafkaProperties once) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    Object acks = config.get(ProducerConfig.ACKS_CONFIG);
    if (acks != null && !"all".equals(acks.toString()) && !"-1".equals(acks.toString())) {
      throw new IllegalStateException(
          "Invalid configuration: Once publishes events with acks=all, so that an event is"
              + " done only once every in-sync replica has it; spring.kafka.producer.acks="
              + acks
              + " contradicts it. Remove the setting or set it to all.");
    }
    Object idempotence = config.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
    if (idempotence != null && !Boolean.parseBoolean(idempotence.toString())) {
      throw new IllegalStateException(
          "Invalid configuration: Once publishes events with the idempotent producer"
              + " (enable.idempotence=true), which keeps a key's records in order across the"
              + " producer's retries; spring.kafka.producer.properties.enable.idempotence=false"
              + " contradicts it.");
    }
    if (config.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
      // Boot sets it from spring.kafka.producer.transaction-id-prefix; Once needs no transactions.
      config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    }
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    Duration send = once.producer().sendTimeout();
    long linger = longValue(config.get(ProducerConfig.LINGER_MS_CONFIG), 5);
    long request = longValue(config.get(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG), 30_000);
    // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
    long requestTimeout = Math.max(1, Math.min(request, send.toMillis() - linger));
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) requestTimeout);
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) (linger + requestTimeout));
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, send.toMillis());
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "once-publisher");
    return config;
  }

  /**
   * The application's consumer settings with what the inbox listeners need: no automatic offset
   * commits, and a new group reading its topics from the start, so that no event published before
   * the group first joined is missed.
   */
  static Map<String, Object> consumerConfig(KafkaProperties kafka) {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    // Marks a value that is not UTF-8, which InboxRecords refuses, instead of applying it with
    // replacement characters.
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, Utf8ValueDeserializer.class);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    return config;
  }

  private static long longValue(Object value, long otherwise) {
    return value == null ? otherwise : Long.parseLong(Objects.toString(value));
  }

  @Override
  public void destroy() {
    producers.destroy();
  }
}
