package dev.once.spring.outbox;

import static dev.once.spring.outbox.OutboxTestApplication.CHARGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.outbox.OutboxTestApplication.Orders;
import dev.once.testing.OldBacklog;
import dev.once.testing.TestDatabase;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Load shedding as the auto-configuration wires it: off by default (appends succeed whatever the
 * backlog), and when on, an append refused with the age and a retry delay while an old backlog
 * lasts, its transaction rolled back. Runs on the shared test database, which other tests leave
 * rows in: the backlog here is made old enough to shed whatever else it holds, and only "off" and
 * "on" are asserted, never the absence of a backlog.
 */
class LoadSheddingAutoConfigurationTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  private static final String BACKLOG = "test.backlog." + UUID.randomUUID();

  private final DataSource dataSource =
      new DriverManagerDataSource(TestDatabase.jdbcUrl(), "postgres", "postgres");
  private final JdbcClient jdbc = JdbcClient.create(dataSource);

  private final ApplicationContextRunner runner =
      OutboxTestApplication.runner()
          .withPropertyValues(
              // Only the test's own rows would be claimed; the relay stays out of the way.
              "once.outbox.relay.enabled=false");

  /**
   * Once's schema on the shared test database before a test writes its backlog there: a context
   * migrates it at start (the test used to rely on a test that ran before it in the same JVM).
   */
  @BeforeAll
  static void migrated() {
    OutboxTestApplication.runner()
        .withPropertyValues("once.outbox.relay.enabled=false")
        .run(context -> assertThat(context).hasNotFailed());
  }

  /** Rows of a type nobody handles, due an hour ago: a relay an hour behind. */
  private void oldBacklog() {
    new OldBacklog(dataSource, BACKLOG).add(1);
  }

  @AfterEach
  void removeBacklog() {
    new OldBacklog(dataSource, BACKLOG).clear();
  }

  private long rows(String type, String payload) {
    return jdbc.sql("SELECT count(*) FROM once.outbox WHERE type = ? AND payload::text = ?")
        .param(type)
        .param(payload)
        .query(Long.class)
        .single();
  }

  @Test
  void offByDefaultSoAppendsSucceedWhateverTheBacklog() {
    oldBacklog();
    runner.run(
        context -> {
          assertThat(context).hasNotFailed();
          OutboxLoadShedding shedding = context.getBean(OutboxLoadShedding.class);
          assertThat(shedding.isEnabled()).isFalse();
          assertThat(shedding.isRunning()).as("no sampling thread").isFalse();
          assertThat(context).doesNotHaveBean("onceOutboxOverloadedAnswer"); // not a web app
          String payload = "{\"n\": \"" + UUID.randomUUID() + "\"}";

          context.getBean(Orders.class).append(CHARGE, payload);

          assertThat(rows(CHARGE, payload)).isEqualTo(1);
        });
  }

  @Test
  void onAnOldBacklogRefusesTheAppendAndItsTransactionRollsBackThenTheSamplerStopsWithTheContext() {
    oldBacklog();
    OutboxLoadShedding[] seen = new OutboxLoadShedding[1];
    runner
        .withPropertyValues(
            "once.outbox.load-shedding.enabled=true",
            "once.outbox.load-shedding.max-due-age=10s",
            "once.outbox.load-shedding.sample-interval=20ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              OutboxLoadShedding shedding = context.getBean(OutboxLoadShedding.class);
              seen[0] = shedding;
              assertThat(shedding.isRunning()).isTrue();
              await().atMost(PATIENCE).until(shedding::isShedding);
              String payload = "{\"n\": \"" + UUID.randomUUID() + "\"}";

              assertThatThrownBy(() -> context.getBean(Orders.class).append(CHARGE, payload))
                  .isInstanceOfSatisfying(
                      OutboxOverloadedException.class,
                      e -> {
                        assertThat(e.oldestDueAge()).isGreaterThan(Duration.ofMinutes(59));
                        assertThat(e.limit()).isEqualTo(Duration.ofSeconds(10));
                        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(10));
                        assertThat(e.retryAfterSeconds()).isEqualTo(10);
                        assertThat(e.getMessage())
                            .startsWith("The outbox takes no new work: its oldest due row has")
                            .doesNotContain(payload);
                      });
              assertThat(rows(CHARGE, payload)).isZero();
            });
    assertThat(seen[0].isRunning()).as("stopped with the context").isFalse();
  }

  @Test
  void theSuggestedDelayIsTheExcessOverTheLimitBetweenOneSecondAndTheLimit() {
    Duration limit = Duration.ofSeconds(5);
    assertThat(OutboxLoadShedding.retryAfter(Duration.ofMillis(5_100), limit))
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(OutboxLoadShedding.retryAfter(Duration.ofMillis(8_500), limit))
        .isEqualTo(Duration.ofMillis(3_500));
    assertThat(OutboxLoadShedding.retryAfter(Duration.ofHours(1), limit)).isEqualTo(limit);
    assertThat(OutboxLoadShedding.retryAfter(Duration.ofSeconds(2), Duration.ofMillis(300)))
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(
            new OutboxOverloadedException(Duration.ofSeconds(9), limit, Duration.ofMillis(3_500))
                .retryAfterSeconds())
        .as("rounded up")
        .isEqualTo(4);
  }

  @Test
  void offNeverRefuses() {
    OutboxLoadShedding off = OutboxLoadShedding.off();
    off.sample();
    off.check();
    assertThat(off.isShedding()).isFalse();
    assertThat(off.isEnabled()).isFalse();
  }
}
