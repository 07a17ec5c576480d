package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxEntry;
import dev.once.testing.EffectTable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transport's meters on a real broker: the publish timer counts each acknowledged send once (as
 * many as the topic holds), the applied counter each event once; the lag gauge is above zero while
 * records wait behind one the consumer is stuck on, and back at zero once it caught up, also when
 * the last record was dead-lettered.
 */
@Timeout(120)
class KafkaMetricsTest {

  @Test
  void publishAndConsumeAreCountedAndTheLagFollowsTheBacklog() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    String key = "metrics-" + run;
    CountDownLatch blocked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    KafkaTransportTest.app(run)
        .withBean(SimpleMeterRegistry.class)
        .withPropertyValues("once.kafka.consumer.concurrency=1")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              DataSource ds = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(ds);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              KafkaTestApplication.Events events =
                  context.getBean(KafkaTestApplication.Events.class);
              KafkaTestApplication.EffectConsumer effect =
                  context.getBean(KafkaTestApplication.EffectConsumer.class);
              Gauge lag = registry.get("once.kafka.consumer.lag").tag("consumer", consumer).gauge();

              List<OutboxEntry> firstFive = new ArrayList<>();
              for (int i = 0; i < 5; i++) {
                firstFive.add(events.publish(type, key, "{\"n\": " + i + "}"));
              }
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(
                      () ->
                          firstFive.stream()
                              .allMatch(e -> effects.applied(e.messageId(), consumer) == 1));
              assertEachSendCountedOnce(registry, type, firstFive);
              assertThat(registry.find("once.kafka.publish").tag("outcome", "failed").timer())
                  .isNull();
              PoisonRecordTest.assertApplied(registry, consumer, 5.0);
              await().atMost(Duration.ofSeconds(10)).until(() -> lag.value() == 0.0);

              // The consumer is stuck on one record; three wait behind it.
              effect.failing =
                  message -> {
                    if (message.payloadJson().contains("block")) {
                      blocked.countDown();
                      try {
                        release.await(60, TimeUnit.SECONDS);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      }
                    }
                    return false;
                  };
              List<OutboxEntry> backlog = new ArrayList<>();
              try {
                backlog.add(events.publish(type, key, "{\"block\": true}"));
                assertThat(blocked.await(30, TimeUnit.SECONDS)).isTrue();
                for (int i = 0; i < 3; i++) {
                  backlog.add(events.publish(type, key, "{\"behind\": " + i + "}"));
                }
                List<OutboxEntry> all = new ArrayList<>(firstFive);
                all.addAll(backlog);
                await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> messageIds(TestBroker.readAll(type)).equals(idsOf(all)));
                await().atMost(Duration.ofSeconds(10)).until(() -> lag.value() > 0.0);
              } finally {
                release.countDown();
              }
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(
                      () ->
                          backlog.stream()
                              .allMatch(e -> effects.applied(e.messageId(), consumer) == 1));
              await().atMost(Duration.ofSeconds(10)).until(() -> lag.value() == 0.0);
              PoisonRecordTest.assertApplied(registry, consumer, 9.0);
              List<OutboxEntry> all = new ArrayList<>(firstFive);
              all.addAll(backlog);
              assertEachSendCountedOnce(registry, type, all);
            });
  }

  /**
   * The publish timer counts each acknowledged send once: as many as the topic holds records of the
   * type, and those records are the events' and no others. Publishing is at least once (a row whose
   * completion failed, or whose lease ran out under a stalled machine, is sent again), so the topic
   * may hold an event twice; then the timer must count both sends, never fewer or more.
   */
  private static void assertEachSendCountedOnce(
      MeterRegistry registry, String type, List<OutboxEntry> events) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> acknowledged(registry, type) == TestBroker.readAll(type).size());
    assertThat(messageIds(TestBroker.readAll(type))).isEqualTo(idsOf(events));
    assertThat(acknowledged(registry, type)).isGreaterThanOrEqualTo(events.size());
  }

  private static long acknowledged(MeterRegistry registry, String type) {
    Timer timer =
        registry.find("once.kafka.publish").tags("type", type, "outcome", "acknowledged").timer();
    return timer == null ? 0 : timer.count();
  }

  private static Set<String> messageIds(List<ConsumerRecord<String, String>> records) {
    Set<String> ids = new HashSet<>();
    for (ConsumerRecord<String, String> record : records) {
      Header id = record.headers().lastHeader(OnceHeaders.MESSAGE_ID);
      ids.add(id == null ? null : new String(id.value(), StandardCharsets.UTF_8));
    }
    return ids;
  }

  private static Set<String> idsOf(List<OutboxEntry> events) {
    Set<String> ids = new HashSet<>();
    events.forEach(e -> ids.add(e.messageId().toString()));
    return ids;
  }

  @Test
  void theLagIsBackAtZeroWhenTheLastRecordWasDeadLettered() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    KafkaTransportTest.app(run)
        .withBean(SimpleMeterRegistry.class)
        .withPropertyValues(
            "once.kafka.consumer.concurrency=1", "once.kafka.consumer.max-attempts=2")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              context.getBean(KafkaTestApplication.EffectConsumer.class).failing =
                  message -> message.payloadJson().contains("poison");
              KafkaTestApplication.Events events =
                  context.getBean(KafkaTestApplication.Events.class);
              // The only record: counted as waiting while it is tried, done once dead-lettered.
              events.publish(type, "k-" + run, "{\"poison\": true}");
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> PoisonRecordTest.deadLetters(registry, consumer) == 1.0);
              Gauge lag = registry.get("once.kafka.consumer.lag").tag("consumer", consumer).gauge();
              await().atMost(Duration.ofSeconds(10)).until(() -> lag.value() == 0.0);
            });
  }
}
