package dev.once.kafka.spring;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.InitializingBean;

/**
 * The topics Once needs (event topics and dead-letter topics), created before the publisher and the
 * listeners start when {@code once.kafka.topic.create} is true.
 */
final class OnceKafkaTopics implements InitializingBean {
  private final Map<String, Object> adminConfig;
  private final Set<String> topics;
  private final OnceKafkaProperties.Topic settings;
  private volatile List<String> created = List.of();

  OnceKafkaTopics(
      Map<String, Object> adminConfig, Set<String> topics, OnceKafkaProperties.Topic settings) {
    this.adminConfig = adminConfig;
    this.topics = Set.copyOf(topics);
    this.settings = settings;
  }

  /** The topics that did not exist and were created at start. */
  List<String> created() {
    return created;
  }

  @Override
  public void afterPropertiesSet() {
    if (settings.create()) {
      created =
          TopicCreation.ensure(
              adminConfig, topics, settings.partitions(), settings.replicationFactor());
    }
  }
}
