package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.RestartableBroker;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Batch consumers (small polls, so a stream of many batches) with a per-key sequence checker in
 * their transactions ({@link KeySequence}): the broker stops mid-stream while events keep being
 * committed, comes back, and a second instance joins the consumer group (a rebalance moves
 * partitions to it) while more events arrive. Proves: no key's events were ever applied out of
 * publish order, across both instances, and each effect exactly once, none lost.
 */
@Timeout(240)
class KeyOrderAcrossRestartAndRebalanceTest {
  private static final int AGGREGATES = 10;

  @Test
  void noKeyIsAppliedOutOfOrderAcrossABrokerRestartAndARebalance() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    try (RestartableBroker broker = RestartableBroker.start()) {
      List<String> properties =
          TransportApps.properties(run, broker.servers(), TestDatabase.jdbcUrl());
      properties.addAll(
          List.of(
              "test.aggregates=" + AGGREGATES,
              "spring.kafka.consumer.max-poll-records=15",
              "once.kafka.consumer.concurrency=1"));
      properties.addAll(TransportApps.brokerOutage());
      try (ConfigurableApplicationContext one =
          TransportApps.start(properties, KeySequence.class)) {
        DataSource dataSource = one.getBean(DataSource.class);
        new EffectTable(dataSource);
        KafkaTestApplication.Events events = one.getBean(KafkaTestApplication.Events.class);
        PublishedEvents published = new PublishedEvents();

        published.publish(events, type, 150, AGGREGATES);
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> PublishedEvents.effects(dataSource, consumer).size() >= 40);
        broker.stop();
        published.publish(events, type, 50, AGGREGATES);
        broker.restart();

        List<String> second = new ArrayList<>(properties);
        second.add("once.outbox.relay.enabled=false");
        try (ConfigurableApplicationContext two = TransportApps.start(second, KeySequence.class)) {
          // The group rebalanced: each instance holds some of the three partitions.
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> !assigned(two).isEmpty() && !assigned(one).isEmpty());
          published.publish(events, type, 150, AGGREGATES);
          await()
              .atMost(Duration.ofSeconds(120))
              .until(() -> published.allApplied(dataSource, consumer));

          assertThat(KeySequence.inversions(dataSource, run)).as("inversions per key").isEmpty();
          published.assertEachAppliedExactlyOnce(dataSource, consumer);
          List<UUID> oneApplied = applied(one);
          List<UUID> twoApplied = applied(two);
          assertThat(twoApplied).as("the second instance did work").isNotEmpty();
          published.assertInPublishOrderPerKey(oneApplied, false, "the first instance");
          published.assertInPublishOrderPerKey(twoApplied, false, "the second instance");
        }
      }
    }
  }

  private static List<UUID> applied(ConfigurableApplicationContext context) {
    return context.getBean(KafkaTestApplication.EffectConsumer.class).applied.stream()
        .map(m -> m.messageId())
        .toList();
  }

  private static Collection<?> assigned(ConfigurableApplicationContext context) {
    Collection<?> partitions =
        context.getBean(InboxListeners.class).containers().get(0).getAssignedPartitions();
    return partitions == null ? List.of() : partitions;
  }
}
