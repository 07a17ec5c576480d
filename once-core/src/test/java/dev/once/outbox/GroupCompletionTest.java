package dev.once.outbox;

import static dev.once.outbox.OutboxDatabase.appendCommitted;
import static dev.once.outbox.OutboxDatabase.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.postgres.PostgresStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The relay's completions of single rows are committed together: while one statement runs, the
 * requests of other workers gather and go in the next one; each row's own claim is still its fence.
 */
@Timeout(60)
class GroupCompletionTest {
  private final DataSource ds = OutboxDatabase.fresh();
  private final OutboxStore real = PostgresStores.outboxStore(ds);
  private final Outbox outbox = Outbox.of(real);
  private final ExecutorService threads = Executors.newFixedThreadPool(8);
  private final CountDownLatch firstRuns = new CountDownLatch(1);
  private final CountDownLatch releaseFirst = new CountDownLatch(1);
  private final List<Integer> statements = new CopyOnWriteArrayList<>();
  private final OutboxStore store =
      new DelegatingStore(real) {
        @Override
        public boolean complete(long id, UUID claimId, boolean keep) {
          statements.add(1);
          firstRuns.countDown();
          try {
            assertThat(releaseFirst.await(30, TimeUnit.SECONDS)).isTrue();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return real.complete(id, claimId, keep);
        }

        @Override
        public Set<Long> completeAll(long[] ids, UUID[] claimIds, boolean keep) {
          statements.add(ids.length);
          return real.completeAll(ids, claimIds, keep);
        }
      };

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void requestsThatArriveWhileAStatementRunsGoTogetherInTheNextAndEachKeepsItsFence()
      throws Exception {
    String[] aggregates = new String[6];
    for (int i = 0; i < aggregates.length; i++) {
      aggregates[i] = "agg-" + i;
    }
    appendCommitted(ds, outbox, "t", aggregates);
    UUID claim = UUID.randomUUID();
    List<OutboxRecord> rows = real.claim(claim, List.of("t"), 10, Duration.ofMinutes(1));
    assertThat(rows).hasSize(6);
    GroupCompletion group = new GroupCompletion(store, true, 50, new RelayCounters());
    UUID stale = UUID.randomUUID(); // the fifth row's claim was lost: its request must fail

    Future<Boolean> first = threads.submit(() -> group.complete(rows.get(0).id(), claim));
    assertThat(firstRuns.await(30, TimeUnit.SECONDS)).isTrue();
    List<Future<Boolean>> others = new ArrayList<>();
    for (int i = 1; i < rows.size(); i++) {
      OutboxRecord row = rows.get(i);
      UUID holder = i == 4 ? stale : claim;
      others.add(threads.submit(() -> group.complete(row.id(), holder)));
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> group.queued() == 5);
    releaseFirst.countDown();

    assertThat(first.get(30, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < others.size(); i++) {
      assertThat(others.get(i).get(30, TimeUnit.SECONDS)).isEqualTo(i != 3);
    }
    assertThat(statements).containsExactly(1, 5);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(state(ds, rows.get(i).id())).isEqualTo(i == 4 ? "pending" : "delivered");
    }
  }
}
