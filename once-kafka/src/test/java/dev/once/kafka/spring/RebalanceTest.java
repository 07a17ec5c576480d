package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.TestBroker;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;

/**
 * Partitions move between two instances of one consumer group while records are being applied. The
 * first instance is inside a transaction, its poll's offsets not yet committed, in a large backlog
 * (6 partitions, 40 aggregates) when the second joins the group (the group is seen rebalancing
 * while the first is held); then the partitions are split between them; then the second is stopped
 * in the middle of one of its polls and the first takes everything back. Proves: each effect
 * exactly once, none lost, both instances did work, and the first application of each event, across
 * both instances, is in publish order per aggregate.
 */
@Timeout(180)
class RebalanceTest {

  @Test
  void partitionsMovingMidBatchKeepEachEffectOnceAndEachKeyInOrder() throws Exception {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    List<String> common =
        TransportApps.properties(run, TestBroker.servers(), TestDatabase.jdbcUrl());
    common.addAll(
        List.of(
            "once.kafka.topic.partitions=6",
            "once.kafka.consumer.concurrency=1",
            "spring.kafka.consumer.max-poll-records=50"));
    // First application of each event, in commit order, across both instances: each entry is
    // added on the consumer's thread right after its transaction committed.
    List<UUID> firstApplications = new CopyOnWriteArrayList<>();

    try (ConfigurableApplicationContext one = TransportApps.start(common)) {
      DataSource dataSource = one.getBean(DataSource.class);
      new EffectTable(dataSource);
      KafkaTestApplication.EffectConsumer oneConsumer =
          one.getBean(KafkaTestApplication.EffectConsumer.class);
      CountDownLatch oneMidBatch = new CountDownLatch(1);
      CountDownLatch secondJoined = new CountDownLatch(1);
      AtomicInteger oneCount = new AtomicInteger();
      oneConsumer.failing =
          message -> {
            AfterCommit.run(() -> firstApplications.add(message.messageId()));
            if (oneCount.incrementAndGet() == 30) {
              oneMidBatch.countDown();
              awaitLatch(secondJoined);
            }
            return false;
          };

      PublishedEvents published = new PublishedEvents();
      KafkaTestApplication.Events events = one.getBean(KafkaTestApplication.Events.class);
      published.publish(events, type, 300, 40);
      assertThat(oneMidBatch.await(60, TimeUnit.SECONDS)).as("the first got going").isTrue();

      // The second instance: consumes only (the first's relay publishes).
      List<String> secondProperties = new ArrayList<>(common);
      secondProperties.add("once.outbox.relay.enabled=false");
      ConfigurableApplicationContext two = TransportApps.start(secondProperties);
      boolean twoClosed = false;
      try {
        KafkaTestApplication.EffectConsumer twoConsumer =
            two.getBean(KafkaTestApplication.EffectConsumer.class);
        CountDownLatch twoMidBatch = new CountDownLatch(1);
        CountDownLatch twoStopping = new CountDownLatch(1);
        AtomicInteger twoCount = new AtomicInteger();
        AtomicBoolean holdTwo = new AtomicBoolean(false);
        twoConsumer.failing =
            message -> {
              AfterCommit.run(() -> firstApplications.add(message.messageId()));
              if (holdTwo.get() && twoCount.incrementAndGet() == 20) {
                twoMidBatch.countDown();
                awaitLatch(twoStopping);
              }
              return false;
            };

        // The second has joined: the group rebalances, waiting for the first, still held
        // mid-batch.
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> groupState(consumer) == GroupState.PREPARING_REBALANCE);
        assertThat(twoConsumer.applied)
            .as("no partition for the second before the first let go")
            .isEmpty();
        secondJoined.countDown();

        // Then the partitions are split between the two.
        ConcurrentMessageListenerContainer<String, String> oneContainer = container(one);
        ConcurrentMessageListenerContainer<String, String> twoContainer = container(two);
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    !assigned(oneContainer).isEmpty()
                        && !assigned(twoContainer).isEmpty()
                        && assigned(oneContainer).size() + assigned(twoContainer).size() == 6);

        // More events, and the second is stopped in the middle of one of its polls.
        holdTwo.set(true);
        published.publish(events, type, 150, 40);
        assertThat(twoMidBatch.await(60, TimeUnit.SECONDS)).as("the second got going").isTrue();
        Thread closing = new Thread(two::close, "closing-second");
        closing.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> !twoContainer.isRunning());
        twoStopping.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(closing.isAlive()).as("the second stopped").isFalse();
        twoClosed = true;

        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> published.allApplied(dataSource, consumer));

        published.assertEachAppliedExactlyOnce(dataSource, consumer);
        assertThat(firstApplications).as("first applications").doesNotHaveDuplicates();
        published.assertInPublishOrderPerKey(firstApplications, true, "both instances");
        List<UUID> oneApplied = oneConsumer.applied.stream().map(m -> m.messageId()).toList();
        List<UUID> twoApplied = twoConsumer.applied.stream().map(m -> m.messageId()).toList();
        assertThat(oneApplied).as("the first did work").isNotEmpty();
        assertThat(twoApplied).as("the second did work").hasSizeGreaterThanOrEqualTo(20);
        published.assertInPublishOrderPerKey(oneApplied, false, "the first instance");
        published.assertInPublishOrderPerKey(twoApplied, false, "the second instance");
        assertThat(oneApplied.size() + twoApplied.size()).isEqualTo(published.size());
      } finally {
        if (!twoClosed) {
          two.close();
        }
      }
    }
  }

  private static ConcurrentMessageListenerContainer<String, String> container(
      ConfigurableApplicationContext context) {
    return context.getBean(InboxListeners.class).containers().get(0);
  }

  private static Collection<TopicPartition> assigned(
      ConcurrentMessageListenerContainer<String, String> container) {
    Collection<TopicPartition> partitions = container.getAssignedPartitions();
    return partitions == null ? List.of() : partitions;
  }

  private static GroupState groupState(String group) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.servers()))) {
      return admin
          .describeConsumerGroups(List.of(group))
          .describedGroups()
          .get(group)
          .get(30, TimeUnit.SECONDS)
          .groupState();
    }
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the test never let the consumer go on");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
