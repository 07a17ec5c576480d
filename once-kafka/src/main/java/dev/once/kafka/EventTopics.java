package dev.once.kafka;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which topic carries which event type: the type's own name unless a mapping names another, and
 * each topic's dead-letter topic (its name and a suffix). Several types may share a topic; then a
 * consumer of one reads, and skips, the others' records. Map the types of one aggregate to one
 * topic when a consumer needs their order across types (records of one key keep their order within
 * a topic, never across topics). Immutable.
 */
public final class EventTopics {
  /** What Kafka accepts as a topic name. */
  private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private final Map<String, String> mapping;
  private final String deadLetterSuffix;

  private EventTopics(Map<String, String> mapping, String deadLetterSuffix) {
    this.mapping = mapping;
    this.deadLetterSuffix = deadLetterSuffix;
  }

  /**
   * Topics named by {@code mapping} (event type to topic), every other type on the topic of its own
   * name.
   *
   * @throws IllegalArgumentException if a topic name is not one Kafka accepts, or the suffix is
   *     empty
   */
  public static EventTopics of(Map<String, String> mapping, String deadLetterSuffix) {
    Objects.requireNonNull(mapping, "mapping");
    Objects.requireNonNull(deadLetterSuffix, "deadLetterSuffix");
    if (deadLetterSuffix.isEmpty() || !TOPIC_NAME.matcher("t" + deadLetterSuffix).matches()) {
      throw new IllegalArgumentException(
          "The dead-letter suffix must be letters, digits, '.', '_' or '-', but was '"
              + deadLetterSuffix
              + "'");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    mapping.forEach(
        (type, topic) -> {
          copy.put(Objects.requireNonNull(type, "type"), checked(topic, "the topic of " + type));
        });
    return new EventTopics(Map.copyOf(copy), deadLetterSuffix);
  }

  /** The topic that carries {@code type}. */
  public String topicOf(String type) {
    String topic = mapping.get(type);
    return topic != null ? topic : checked(type, "the event type");
  }

  /** The topics that carry {@code types}, sorted. */
  public Set<String> topicsOf(Collection<String> types) {
    Set<String> topics = new TreeSet<>();
    types.forEach(type -> topics.add(topicOf(type)));
    return topics;
  }

  /** Where records of {@code topic} that keep failing go. */
  public String deadLetterTopicOf(String topic) {
    return topic + deadLetterSuffix;
  }

  private static String checked(String topic, String what) {
    if (topic == null
        || !TOPIC_NAME.matcher(topic).matches()
        || ".".equals(topic)
        || "..".equals(topic)) {
      throw new IllegalArgumentException(
          what
              + " is not a Kafka topic name (1 to 249 letters, digits, '.', '_' or '-'): '"
              + topic
              + "'; map the type to a topic with once.kafka.topics");
    }
    return topic;
  }
}
