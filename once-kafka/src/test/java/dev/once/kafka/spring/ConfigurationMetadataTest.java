package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The configuration processor generated Spring Boot's metadata for {@code once.kafka.*}: every
 * property is listed with a description (what an IDE shows), and the defaults are recorded.
 */
class ConfigurationMetadataTest {

  @Test
  void everyOnceKafkaPropertyHasADescriptionAndTheDefaultsAreRecorded() throws Exception {
    String json;
    try (InputStream in =
        OnceKafkaProperties.class.getResourceAsStream(
            "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in)
          .as("META-INF/spring-configuration-metadata.json on the class path")
          .isNotNull();
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Map<String, Object>> all = JsonPath.read(json, "$.properties");
    Map<String, Map<String, Object>> properties = new HashMap<>();
    for (Map<String, Object> property : all) {
      String name = (String) property.get("name");
      if (name.startsWith("once.kafka.")) {
        properties.put(name, property);
      }
    }
    assertThat(properties)
        .containsKeys(
            "once.kafka.enabled",
            "once.kafka.topics",
            "once.kafka.dead-letter-suffix",
            "once.kafka.topic.create",
            "once.kafka.topic.partitions",
            "once.kafka.topic.replication-factor",
            "once.kafka.producer.send-timeout",
            "once.kafka.consumer.enabled",
            "once.kafka.consumer.group-prefix",
            "once.kafka.consumer.concurrency",
            "once.kafka.consumer.key-lanes",
            "once.kafka.consumer.max-attempts",
            "once.kafka.consumer.initial-delay",
            "once.kafka.consumer.max-delay");
    List<String> undescribed = new ArrayList<>();
    properties.forEach(
        (name, property) -> {
          Object description = property.get("description");
          if (description == null || description.toString().isBlank()) {
            undescribed.add(name);
          }
        });
    assertThat(undescribed).as("once.kafka properties without a description").isEmpty();
    assertThat(defaultOf(properties, "once.kafka.enabled")).isEqualTo(true);
    assertThat(defaultOf(properties, "once.kafka.consumer.enabled")).isEqualTo(true);
    assertThat(defaultOf(properties, "once.kafka.topic.create")).isEqualTo(true);
    assertThat(defaultOf(properties, "once.kafka.dead-letter-suffix")).isEqualTo(".dlt");
    assertThat(defaultOf(properties, "once.kafka.topic.partitions")).isEqualTo(6);
    assertThat(defaultOf(properties, "once.kafka.topic.replication-factor")).isEqualTo(0);
    assertThat(defaultOf(properties, "once.kafka.consumer.concurrency")).isEqualTo(2);
    assertThat(defaultOf(properties, "once.kafka.consumer.key-lanes")).isEqualTo(1);
    assertThat(defaultOf(properties, "once.kafka.consumer.max-attempts")).isEqualTo(10);
    assertThat(defaultOf(properties, "once.kafka.consumer.initial-delay")).isEqualTo("100ms");
    assertThat(defaultOf(properties, "once.kafka.consumer.max-delay")).isEqualTo("10s");
    assertThat(defaultOf(properties, "once.kafka.producer.send-timeout")).isEqualTo("10s");
  }

  private static Object defaultOf(Map<String, Map<String, Object>> properties, String name) {
    return properties.get(name).get("defaultValue");
  }
}
