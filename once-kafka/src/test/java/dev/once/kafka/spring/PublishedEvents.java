package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.kafka.OnceHeaders;
import dev.once.outbox.OutboxEntry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The events a test published, in publish (commit) order, and the three checks every crash test
 * makes on them: each effect exactly once, nothing lost, order per key kept. Thread-safe.
 */
final class PublishedEvents {
  private final List<UUID> order = new ArrayList<>();
  private final Map<UUID, String> aggregateOf = new HashMap<>();

  /** After the transaction that appended {@code entry} for {@code aggregate} committed. */
  void add(OutboxEntry entry, String aggregate) {
    add(entry.messageId(), aggregate);
  }

  /** After event {@code id} of {@code aggregate} was written to its topic. */
  synchronized void add(UUID id, String aggregate) {
    order.add(id);
    aggregateOf.put(id, aggregate);
  }

  synchronized List<UUID> ids() {
    return List.copyOf(order);
  }

  synchronized int size() {
    return order.size();
  }

  synchronized String aggregateOf(UUID id) {
    return aggregateOf.get(id);
  }

  /** Publishes {@code count} events of {@code type}, aggregate {@code i % aggregates}. */
  void publish(KafkaTestApplication.Events events, String type, int count, int aggregates) {
    for (int i = 0; i < count; i++) {
      int seq = size();
      String aggregate = "agg-" + (seq % aggregates);
      add(events.publish(type, aggregate, "{\"seq\":" + seq + "}"), aggregate);
    }
  }

  /** Every effect {@code consumer} committed: message id to the number of times it was applied. */
  static Map<UUID, Integer> effects(DataSource dataSource, String consumer) {
    Map<UUID, Integer> effects = new HashMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT message_id, applied FROM public.test_effect WHERE consumer = ?")) {
      ps.setString(1, consumer);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          effects.put(rs.getObject(1, UUID.class), rs.getInt(2));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return effects;
  }

  /** How many outbox rows of {@code ids} match the SQL {@code condition} on {@code once.outbox}. */
  static int outboxRows(DataSource dataSource, String condition, List<UUID> ids) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM once.outbox WHERE message_id = ANY (?) AND " + condition)) {
      ps.setArray(1, c.createArrayOf("uuid", ids.toArray(UUID[]::new)));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether every published event has an effect of {@code consumer} (for polling). */
  boolean allApplied(DataSource dataSource, String consumer) {
    return effects(dataSource, consumer).keySet().containsAll(ids());
  }

  /**
   * Each published event applied exactly once by {@code consumer}, none missing, and no effect of a
   * message that was never published.
   */
  void assertEachAppliedExactlyOnce(DataSource dataSource, String consumer) {
    Map<UUID, Integer> effects = effects(dataSource, consumer);
    List<UUID> ids = ids();
    List<UUID> missing = ids.stream().filter(id -> !effects.containsKey(id)).toList();
    assertThat(missing).as("published events never applied (lost)").isEmpty();
    Map<UUID, Integer> notOnce = new LinkedHashMap<>();
    ids.forEach(
        id -> {
          if (effects.get(id) != 1) {
            notOnce.put(id, effects.get(id));
          }
        });
    assertThat(notOnce).as("events applied other than exactly once").isEmpty();
    assertThat(effects.keySet()).as("effects of unpublished messages").hasSameSizeAs(ids);
  }

  /**
   * {@code sequence} (message ids, repeats allowed: only the first occurrence of each counts) lists
   * each aggregate's events in the order they were published. With {@code complete}, it holds every
   * published event; without, a subset (one consumer's share), still in publish order per
   * aggregate.
   */
  void assertInPublishOrderPerKey(List<UUID> sequence, boolean complete, String what) {
    Map<String, List<UUID>> expected = perAggregate(ids());
    Set<UUID> first = new LinkedHashSet<>(sequence);
    Map<String, List<UUID>> actual = perAggregate(new ArrayList<>(first));
    Set<UUID> published = Set.copyOf(ids());
    assertThat(published).as("%s: only published events", what).containsAll(first);
    if (complete) {
      assertThat(first).as("%s: every published event", what).hasSameSizeAs(published);
    }
    actual.forEach(
        (aggregate, ids) -> {
          List<UUID> wanted =
              expected.get(aggregate).stream().filter(Set.copyOf(ids)::contains).toList();
          assertThat(ids).as("%s: order of %s", what, aggregate).containsExactlyElementsOf(wanted);
        });
  }

  private Map<String, List<UUID>> perAggregate(List<UUID> ids) {
    Map<String, List<UUID>> byAggregate = new LinkedHashMap<>();
    for (UUID id : ids) {
      byAggregate.computeIfAbsent(aggregateOf(id), k -> new ArrayList<>()).add(id);
    }
    return byAggregate;
  }

  /** The message ids of {@code records}, in their order (per partition, offset order). */
  static List<UUID> messageIds(List<ConsumerRecord<String, String>> records) {
    return records.stream()
        .map(
            r ->
                UUID.fromString(
                    new String(
                        r.headers().lastHeader(OnceHeaders.MESSAGE_ID).value(),
                        StandardCharsets.UTF_8)))
        .toList();
  }
}
