package dev.once.kafka.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the topics Once publishes to and reads from, and the dead-letter topics, when they do not
 * exist; never changes one that does. A broker that does not answer within the time-out is logged
 * and the application starts anyway: the relay keeps events in the outbox until the broker takes
 * them (and a broker with {@code auto.create.topics.enable} creates a missing topic with its own
 * defaults).
 */
final class TopicCreation {
  private static final Logger log = LoggerFactory.getLogger(TopicCreation.class);
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private TopicCreation() {}

  /**
   * @return the topics it created now
   */
  static List<String> ensure(
      Map<String, Object> adminConfig, Set<String> topics, int partitions, short replication) {
    List<NewTopic> wanted = new ArrayList<>();
    Optional<Short> replicas = replication > 0 ? Optional.of(replication) : Optional.empty();
    topics.forEach(topic -> wanted.add(new NewTopic(topic, Optional.of(partitions), replicas)));
    List<String> created = new ArrayList<>();
    if (wanted.isEmpty()) {
      return created;
    }
    Admin admin = Admin.create(adminConfig);
    try {
      Map<String, KafkaFuture<Void>> results = admin.createTopics(wanted).values();
      for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
        try {
          result.getValue().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
          created.add(result.getKey());
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            log.warn(
                "Could not create the Kafka topic {}: {}; publishing to it waits for it",
                result.getKey(),
                String.valueOf(e.getCause()));
          }
        }
      }
    } catch (TimeoutException e) {
      log.warn(
          "Kafka did not answer within {} while Once created its topics {}; the application"
              + " starts, and events wait in the outbox until the broker takes them",
          TIMEOUT,
          topics);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      admin.close(Duration.ofSeconds(1));
    }
    if (!created.isEmpty()) {
      log.info("Created the Kafka topics {} with {} partition(s)", created, partitions);
    }
    return created;
  }
}
