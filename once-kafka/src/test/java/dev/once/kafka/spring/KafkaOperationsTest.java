package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.Replay;
import dev.once.outbox.ReplayRequest;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.testing.EffectTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 40's operations through a real broker: a paused event type is not published (its rows wait,
 * unattempted) until it is resumed, then every event is applied once; with the archive on, a replay
 * for the consumer publishes the archived events again and the consumer, whose inbox records were
 * forgotten, applies each a second time, exactly once more; a delayed event is not published before
 * it is due, and the later event of its aggregate waits behind it.
 */
@Timeout(120)
class KafkaOperationsTest {

  @Test
  void aPausedTypeWaitsUnpublishedAndAReplayForTheConsumerIsAppliedOnceMore() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    KafkaTransportTest.app(run)
        .withPropertyValues(
            "once.outbox.archive.enabled=true", "once.outbox.relay.delivered-retention=0s")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              OutboxAdmin admin = context.getBean(OutboxAdmin.class);
              DataSource dataSource = context.getBean(DataSource.class);
              EffectTable effects = new EffectTable(dataSource);
              JdbcClient jdbc = JdbcClient.create(dataSource);
              Instant from = Instant.now().minusSeconds(60);
              assertThat(admin.pause(type, "ops", "consumer bug")).isTrue();
              List<UUID> ids = new ArrayList<>();
              try {
                for (int i = 0; i < 5; i++) {
                  OutboxEntry entry =
                      context
                          .getBean(KafkaTestApplication.Events.class)
                          .publish(type, "agg-" + i, "{\"seq\":" + i + "}");
                  ids.add(entry.messageId());
                }

                assertThat(context.getBean(OutboxRelay.class).runOnce())
                    .as("nothing of a paused type is claimed")
                    .isZero();
                assertThat(
                        jdbc.sql(
                                "SELECT count(*) FROM once.outbox WHERE type = ? AND attempts = 0"
                                    + " AND state = 'pending'")
                            .param(type)
                            .query(Long.class)
                            .single())
                    .isEqualTo(5);
              } finally {
                admin.resume(type);
              }
              context.getBean(OutboxRelay.class).wakeUp();
              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> ids.stream().allMatch(id -> effects.applied(id, consumer) == 1));
              await().atMost(Duration.ofSeconds(60)).until(() -> archived(jdbc, type) == 5);
              assertThat(TestBroker.readAll(type)).hasSize(5);

              Replay replay =
                  admin.replay(
                      new ReplayRequest(
                          UUID.randomUUID(),
                          type,
                          from,
                          Instant.now().plusSeconds(60),
                          null,
                          consumer,
                          "ops"));

              assertThat(replay.rows()).isEqualTo(5);
              assertThat(replay.forgotten()).isEqualTo(5);
              context.getBean(OutboxRelay.class).wakeUp();
              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> ids.stream().allMatch(id -> effects.applied(id, consumer) == 2));
              await().atMost(Duration.ofSeconds(60)).until(() -> archived(jdbc, type) == 10);
              for (UUID id : ids) {
                assertThat(effects.applied(id, consumer))
                    .as("once more, not twice more")
                    .isEqualTo(2);
              }
              assertThat(TestBroker.readAll(type)).as("published again").hasSize(10);
            });
  }

  /** A delayed event is not published before it is due, and its aggregate's later event waits. */
  @Test
  void aDelayedEventIsNotPublishedEarlyAndItsAggregateStaysInOrder() {
    String run = TestBroker.run();
    String type = KafkaTestApplication.type(run);
    String consumer = KafkaTestApplication.consumer(run);
    KafkaTransportTest.app(run)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              TransactionalOutbox outbox = context.getBean(TransactionalOutbox.class);
              TransactionTemplate tx =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
              EffectTable effects = new EffectTable(context.getBean(DataSource.class));
              JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
              OutboxEntry delayed =
                  tx.execute(
                      s ->
                          outbox.append(
                              new OutboxMessage(type, "late", "{\"seq\":0}")
                                  .deliverAfter(Duration.ofHours(1))));
              OutboxEntry behind =
                  tx.execute(s -> outbox.append(new OutboxMessage(type, "late", "{\"seq\":1}")));
              OutboxEntry free =
                  tx.execute(s -> outbox.append(new OutboxMessage(type, "free", "{\"seq\":2}")));

              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> effects.applied(free.messageId(), consumer) == 1);
              assertThat(context.getBean(OutboxRelay.class).runOnce()).isZero();
              assertThat(effects.applied(delayed.messageId(), consumer)).isZero();
              assertThat(effects.applied(behind.messageId(), consumer)).as("waits").isZero();
              assertThat(TestBroker.readAll(type)).extracting(r -> r.key()).containsExactly("free");

              // An hour passes for the delayed row.
              jdbc.sql("UPDATE once.outbox SET next_attempt_at = now() WHERE id = ?")
                  .param(delayed.id())
                  .update();
              context.getBean(OutboxRelay.class).wakeUp();
              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> effects.applied(behind.messageId(), consumer) == 1);
              assertThat(effects.applied(delayed.messageId(), consumer)).isEqualTo(1);
              assertThat(
                      TestBroker.readAll(type).stream()
                          .filter(r -> r.key().equals("late"))
                          .map(r -> r.value().replace(" ", ""))
                          .toList())
                  .containsExactly("{\"seq\":0}", "{\"seq\":1}");
            });
  }

  private static long archived(JdbcClient jdbc, String type) {
    return jdbc.sql("SELECT count(*) FROM once.outbox_archive WHERE type = ?")
        .param(type)
        .query(Long.class)
        .single();
  }
}
