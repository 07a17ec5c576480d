package dev.once.kafka.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.kafka.KafkaTestSupport;
import dev.once.kafka.OnceHeaders;
import dev.once.kafka.TestBroker;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.outbox.OutboxLoadShedding;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.testing.OldBacklog;
import dev.once.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox's load shedding refuses new work, never a Kafka inbox consumer's: a consumer whose
 * effect appends an event (as the shop's reserve-stock appends stock.reserved) applies every record
 * on its first delivery while the outbox sheds, where a refused append would roll its batch back,
 * retry each record with its partition stalled behind it, and dead-letter it after {@code
 * max-attempts}. A plain append in the same application is refused meanwhile, so shedding was on.
 */
@Timeout(120)
class LoadSheddingConsumerTest {
  private static final int RECORDS = 20;

  /** Rows of a type no handler takes, an hour old: the backlog that turns shedding on. */
  private static final String BACKLOG = "test.backlog";

  /** A batch consumer (one transaction per partition's poll) and one per record. */
  @ParameterizedTest(name = "batch consumer: {0}")
  @ValueSource(booleans = {true, false})
  void aConsumerThatAppendsIsNeverShedWhileNewWorkIs(boolean batch) throws Exception {
    String run = TestBroker.run();
    String type = ReplyingConsumer.type(run);
    KafkaTestSupport.createTopic(type, 1);
    List<String> properties =
        TransportApps.properties(run, TestBroker.servers(), TestDatabase.jdbcUrl());
    properties.addAll(
        List.of(
            "once.outbox.load-shedding.enabled=true",
            "once.outbox.load-shedding.max-due-age=2s",
            "once.outbox.load-shedding.sample-interval=50ms",
            "once.kafka.consumer.max-attempts=2",
            "test.batch=" + batch));
    try (ConfigurableApplicationContext app =
            TransportApps.start(properties, ReplyingConsumer.Config.class);
        KafkaProducer<String, String> producer = KafkaTestSupport.producer(Map.of())) {
      DataSource dataSource = app.getBean(DataSource.class);
      JdbcClient jdbc = JdbcClient.create(dataSource);
      OutboxLoadShedding shedding = app.getBean(OutboxLoadShedding.class);
      MeterRegistry registry = app.getBean(MeterRegistry.class);
      String consumer = ReplyingConsumer.name(run);
      OldBacklog backlog = new OldBacklog(dataSource, BACKLOG);
      backlog.add(50);
      try {
        await().atMost(Duration.ofSeconds(20)).until(shedding::isShedding);
        TransactionalOutbox outbox = app.getBean(TransactionalOutbox.class);
        assertThatThrownBy(
                () ->
                    new TransactionTemplate(app.getBean(PlatformTransactionManager.class))
                        .executeWithoutResult(
                            status -> outbox.append(new OutboxMessage(BACKLOG, "new", "{}"))))
            .as("new work is refused while the backlog is old")
            .isInstanceOf(OutboxOverloadedException.class);

        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
          UUID id = UUID.randomUUID();
          ids.add(id);
          RecordHeaders headers = new RecordHeaders();
          headers.add(OnceHeaders.MESSAGE_ID, id.toString().getBytes(StandardCharsets.UTF_8));
          headers.add(OnceHeaders.TYPE, type.getBytes(StandardCharsets.UTF_8));
          producer.send(new ProducerRecord<>(type, null, "agg-" + i, "{\"n\":" + i + "}", headers));
        }
        producer.flush();

        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () ->
                    PoisonRecordTest.applied(registry, consumer) >= RECORDS
                        || PoisonRecordTest.deadLetters(registry, consumer) > 0);

        assertThat(PoisonRecordTest.deadLetters(registry, consumer))
            .as("records dead-lettered")
            .isZero();
        PoisonRecordTest.assertApplied(registry, consumer, RECORDS);
        assertThat(
                jdbc.sql(
                        "SELECT aggregate_id FROM once.outbox WHERE type = ? ORDER BY aggregate_id")
                    .param(ReplyingConsumer.replyType(run))
                    .query(String.class)
                    .list())
            .as("one reply appended per record")
            .containsExactlyInAnyOrderElementsOf(ids.stream().map(UUID::toString).toList());
        assertThat(TransportApps.counter(registry, consumer, "duplicate"))
            .as("no record delivered twice: none was retried")
            .isZero();
        assertThat(shedding.isShedding()).as("still shedding at the end").isTrue();
      } finally {
        backlog.clear();
      }
    }
  }

  /**
   * A consumer that appends one reply event per message, in the inbox's transaction, one message
   * per transaction ({@link Batch} takes a batch in one).
   */
  static class ReplyingConsumer implements InboxConsumer {
    private final String run;
    private final TransactionalOutbox outbox;

    ReplyingConsumer(String run, TransactionalOutbox outbox) {
      this.run = run;
      this.outbox = outbox;
    }

    static String type(String run) {
      return "test.kafka.shed." + run;
    }

    static String replyType(String run) {
      return "test.kafka.reply." + run;
    }

    static String name(String run) {
      return "replies-" + run;
    }

    @Override
    public String name() {
      return name(run);
    }

    @Override
    public Set<String> types() {
      return Set.of(type(run));
    }

    @Override
    public void consume(Connection tx, InboxMessage message) {
      outbox.append(new OutboxMessage(replyType(run), message.messageId().toString(), "{}"));
    }

    /** The same consumer, taking a partition's records of a poll in one transaction. */
    static final class Batch extends ReplyingConsumer implements BatchInboxConsumer {
      Batch(String run, TransactionalOutbox outbox) {
        super(run, outbox);
      }
    }

    @Configuration(proxyBeanMethods = false)
    static class Config {
      @Bean
      ReplyingConsumer replyingConsumer(Environment environment, TransactionalOutbox outbox) {
        String run = environment.getRequiredProperty("test.run");
        return environment.getRequiredProperty("test.batch", Boolean.class)
            ? new Batch(run, outbox)
            : new ReplyingConsumer(run, outbox);
      }
    }
  }
}
