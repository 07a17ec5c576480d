package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.RestartableBroker;
import dev.once.testing.EffectTable;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The broker goes down mid-stream, while the relay publishes and a consumer is in the middle of a
 * poll's records, and comes back on the same port and log directory. Proves: events committed while
 * it is down wait in the outbox (pending; the relay's attempts fail as retries, none given up),
 * nothing of them is consumed before the restart; the consumer's transactions that commit while no
 * broker takes their offsets are not applied again; and after the restart every event is applied
 * exactly once, none lost, in publish order per aggregate both on the topic and in the consumer.
 */
@Timeout(180)
class BrokerRestartTest {

  @Test
  void eventsCommittedWhileTheBrokerIsDownArriveOnceAndInOrderAfterItRestarts() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    try (RestartableBroker broker = RestartableBroker.start()) {
      List<String> properties =
          TransportApps.properties(run, broker.servers(), TestDatabase.jdbcUrl());
      properties.addAll(TransportApps.brokerOutage());
      properties.addAll(List.of("once.kafka.consumer.concurrency=2"));
      try (ConfigurableApplicationContext app = TransportApps.start(properties)) {
        DataSource dataSource = app.getBean(DataSource.class);
        new EffectTable(dataSource);
        KafkaTestApplication.EffectConsumer effects =
            app.getBean(KafkaTestApplication.EffectConsumer.class);
        KafkaTestApplication.Events events = app.getBean(KafkaTestApplication.Events.class);

        // The consumer stops in the middle of a poll's records (inside its 40th transaction)
        // until the broker is down.
        CountDownLatch midway = new CountDownLatch(1);
        CountDownLatch brokerDown = new CountDownLatch(1);
        AtomicInteger consumed = new AtomicInteger();
        effects.failing =
            message -> {
              if (consumed.incrementAndGet() == 40) {
                midway.countDown();
                awaitLatch(brokerDown);
              }
              return false;
            };

        PublishedEvents published = new PublishedEvents();
        published.publish(events, type, 150, 10);
        assertThat(midway.await(60, TimeUnit.SECONDS)).as("the consumer got going").isTrue();

        broker.stop();
        // The consumer's 40th transaction and the rest of its poll commit now, with no broker to
        // take their offsets.
        brokerDown.countDown();
        long failedBefore = TransportApps.failedPublications(app, type);
        List<UUID> before = published.ids();
        published.publish(events, type, 100, 10);
        List<UUID> duringOutage = published.ids().subList(before.size(), published.size());

        // The outbox buffers: the relay tries rows (the new ones, or earlier ones of their
        // aggregates that the new ones wait behind), the publisher answers retry, and they stay
        // pending.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    TransportApps.failedPublications(app, type) > failedBefore
                        && triedAndPending(dataSource, published.ids()) > 0);
        assertThat(PublishedEvents.outboxRows(dataSource, "state = 'pending'", duringOutage))
            .as("rows committed while the broker is down, still pending")
            .isEqualTo(duringOutage.size());
        assertThat(PublishedEvents.effects(dataSource, consumer).keySet())
            .as("nothing committed while the broker is down was consumed")
            .doesNotContainAnyElementsOf(duringOutage);

        broker.restart();
        published.publish(events, type, 50, 10);

        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> published.allApplied(dataSource, consumer));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> deliveredOrDead(dataSource, published.ids()) == published.size());

        published.assertEachAppliedExactlyOnce(dataSource, consumer);
        published.assertInPublishOrderPerKey(
            effects.applied.stream().map(m -> m.messageId()).toList(),
            true,
            "the consumer's applications");
        published.assertInPublishOrderPerKey(
            PublishedEvents.messageIds(broker.readAll(type)), true, "the topic");
        assertThat(dead(dataSource, published.ids())).as("rows given up").isZero();
      }
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

  /** Rows of {@code ids} the relay tried (and failed) that are still pending. */
  private static int triedAndPending(DataSource dataSource, List<UUID> ids) {
    return PublishedEvents.outboxRows(
        dataSource, "state = 'pending' AND attempts > 0 AND last_error IS NOT NULL", ids);
  }

  private static int deliveredOrDead(DataSource dataSource, List<UUID> ids) {
    return PublishedEvents.outboxRows(dataSource, "state IN ('delivered', 'dead')", ids);
  }

  private static int dead(DataSource dataSource, List<UUID> ids) {
    return PublishedEvents.outboxRows(dataSource, "state = 'dead'", ids);
  }
}
