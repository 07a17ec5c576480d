package dev.once.shop.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
import dev.once.outbox.ClaimLostException;
import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.psp.PspSimulator;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.shop.support.TransactionRecorder.Begun;
import dev.once.spring.outbox.OutboxHandler;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The charge handler's batch path ({@link BatchMessageHandler#handleAll}), called as the relay
 * calls it (the relay is off), against the in-process PSP simulator: a batch's final answers are
 * recorded in ONE transaction that also completes their rows (the completion stands in for the
 * relay's: it marks the rows delivered in the transaction it is joined to, so they are delivered
 * only if that transaction commits); a payment that cannot take its answer, or a row whose claim
 * was lost, rolls that transaction back, and then each answer is recorded alone, so only that row
 * fails and the provider is not called again.
 */
@Timeout(120)
class ChargeBatchTest extends ShopIntegrationTest {
  @Autowired private List<OutboxHandler> handlers;
  @Autowired private PaymentService payments;
  @Autowired private PspSimulator provider;

  private TestClient client;
  private String account;

  @BeforeEach
  void clientWithMoney() {
    client = newClient();
    account = client.openAccountWith("EUR", "1000.00");
  }

  @Test
  void theChargeHandlerReachesTheRelayAsABatchHandler() {
    assertThat(handler()).isInstanceOf(BatchMessageHandler.class);
  }

  @Test
  void aBatchOfAnswersIsRecordedInOneTransactionThatCompletesItsRows() throws Exception {
    List<String> paid = payments("1.00", "2.00", "3.00", "4.00", "5.51"); // 5.51 is declined
    List<OutboxRecord> rows = paid.stream().map(this::row).toList();
    Rows completion = new Rows(Set.of());

    transactions.start();
    List<Delivery> outcomes = handler().handleAll(rows, completion);
    List<Begun> begun = transactions.stopOnThisThread();

    assertThat(outcomes).containsOnly(Delivery.done()).hasSize(rows.size());
    assertThat(begun).as("transactions").hasSize(1);
    assertThat(begun.get(0).name()).endsWith("settleAll");
    assertThat(completion.made).as("completions made").containsExactly(ids(rows));
    assertThat(delivered(rows)).as("rows completed with the settlement").isEqualTo(ids(rows));
    assertThat(paid.stream().map(this::status))
        .containsExactly("succeeded", "succeeded", "succeeded", "succeeded", "failed");
    for (String payment : paid) {
      assertThat(provider.stats(payment).effects()).as(payment).isEqualTo(1);
    }
    assertThat(client.balance(account)).isEqualTo("990.0000");
    assertThat(paymentEvents(paid)).as("payments of no order publish no event").isZero();
  }

  @AfterEach
  void noHook() {
    provider.afterApply(reference -> {});
  }

  @Test
  void theProviderCallsOfABatchRunConcurrently() throws Exception {
    List<String> paid = payments("1.00", "2.00", "3.00", "4.00");
    List<OutboxRecord> rows = paid.stream().map(this::row).toList();
    // Each call waits, inside the provider, until all four are there: one call after another
    // would never get past the first (it gives up after 4 s, below the shop's read time-out).
    CountDownLatch allInFlight = new CountDownLatch(rows.size());
    AtomicInteger together = new AtomicInteger();
    provider.afterApply(
        reference -> {
          allInFlight.countDown();
          try {
            if (allInFlight.await(4, TimeUnit.SECONDS)) {
              together.incrementAndGet();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });

    List<Delivery> outcomes = handler().handleAll(rows, new Rows(Set.of()));

    assertThat(together).as("calls that met the other three in flight").hasValue(rows.size());
    assertThat(outcomes).containsOnly(Delivery.done()).hasSize(rows.size());
    for (String payment : paid) {
      assertThat(provider.stats(payment).effects()).as(payment).isEqualTo(1);
    }
  }

  @Test
  void aPaymentThatCannotTakeItsAnswerIsDeadAloneAndTheOthersSettle() throws Exception {
    List<String> paid = payments("1.00", "2.00", "3.00", "4.00");
    // The poison: the shop already recorded a decline that the provider now answers succeeded.
    String poison = paid.get(2);
    payments.settle(poison, PaymentStatus.FAILED);
    List<OutboxRecord> rows = paid.stream().map(this::row).toList();
    Rows completion = new Rows(Set.of());

    transactions.start();
    List<Delivery> outcomes = handler().handleAll(rows, completion);
    List<Begun> begun = transactions.stopOnThisThread();

    assertThat(outcomes.get(0)).isEqualTo(Delivery.done());
    assertThat(outcomes.get(1)).isEqualTo(Delivery.done());
    assertThat(outcomes.get(2)).isInstanceOf(Delivery.Dead.class);
    assertThat(outcomes.get(3)).isEqualTo(Delivery.done());
    assertThat(begun).as("the batch's, rolled back, then one per answer").hasSize(1 + rows.size());
    assertThat(delivered(rows))
        .as("each settled row completed alone")
        .isEqualTo(ids(List.of(rows.get(0), rows.get(1), rows.get(3))));
    assertThat(paid.stream().map(this::status))
        .containsExactly("succeeded", "succeeded", "failed", "succeeded");
    for (String payment : paid) {
      assertThat(provider.stats(payment).effects()).as("%s charged once", payment).isEqualTo(1);
    }
    // 1 + 2 + 4 charged; the poison's 3 given back by its recorded decline.
    assertThat(client.balance(account)).isEqualTo("993.0000");
  }

  @Test
  void aRowWhoseClaimWasLostIsLeftToItsNewHolderAndTheOthersSettle() throws Exception {
    List<String> paid = payments("1.00", "2.00", "3.00");
    List<OutboxRecord> rows = paid.stream().map(this::row).toList();
    Rows completion = new Rows(Set.of(rows.get(1).id()));

    List<Delivery> outcomes = handler().handleAll(rows, completion);

    assertThat(outcomes.get(0)).isEqualTo(Delivery.done());
    assertThat(outcomes.get(1)).isInstanceOf(Delivery.Retry.class);
    assertThat(outcomes.get(2)).isEqualTo(Delivery.done());
    assertThat(delivered(rows)).isEqualTo(ids(List.of(rows.get(0), rows.get(2))));
    assertThat(paid.stream().map(this::status))
        .as("the lost row's settlement rolled back with its completion")
        .containsExactly("succeeded", "pending", "succeeded");
  }

  private BatchMessageHandler handler() {
    return (BatchMessageHandler)
        handlers.stream()
            .filter(h -> h.type().equals(PaymentService.PROVIDER_CHARGE))
            .findFirst()
            .orElseThrow();
  }

  private List<String> payments(String... amounts) {
    List<String> made = new CopyOnWriteArrayList<>();
    for (String amount : amounts) {
      made.add(client.pay(account, amount, "EUR").text("id"));
    }
    return made;
  }

  private String status(String payment) {
    return client.get("/v1/payments/" + payment).text("status");
  }

  private long paymentEvents(List<String> paid) {
    return jdbc.sql(
            "SELECT count(*) FROM once.outbox WHERE aggregate_id IN (:p) AND type LIKE 'payment.%'")
        .param("p", paid)
        .query(Long.class)
        .single();
  }

  private static List<Long> ids(List<OutboxRecord> rows) {
    return rows.stream().map(OutboxRecord::id).toList();
  }

  /** The rows among {@code rows} marked delivered, in id order. */
  private List<Long> delivered(List<OutboxRecord> rows) {
    return jdbc.sql(
            "SELECT id FROM once.outbox WHERE id IN (:ids) AND state = 'delivered' ORDER BY id")
        .param("ids", ids(rows))
        .query(Long.class)
        .list();
  }

  /** The payment's provider.charge row, as the relay claims it. */
  private OutboxRecord row(String payment) {
    return jdbc.sql(
            """
            SELECT id, message_id, aggregate_id, payload::text AS payload, created_at
            FROM once.outbox WHERE type = 'provider.charge' AND aggregate_id = :payment
            """)
        .param("payment", payment)
        .query(
            (rs, n) ->
                new OutboxRecord(
                    rs.getLong("id"),
                    rs.getObject("message_id", UUID.class),
                    PaymentService.PROVIDER_CHARGE,
                    rs.getString("aggregate_id"),
                    rs.getString("payload"),
                    1,
                    rs.getObject("created_at", OffsetDateTime.class).toInstant()))
        .single();
  }

  /**
   * A stand-in for the relay's completion of a batch: each completion marks its rows delivered in
   * the transaction it is joined to, all or none, and throws {@link ClaimLostException} (writing
   * nothing) if one of them is in {@code lost}, as the relay's does for a row it no longer holds.
   */
  private static final class Rows implements BatchCompletion {
    final List<List<Long>> made = new CopyOnWriteArrayList<>();
    final Set<Long> joined = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Set<Long> lost;

    Rows(Set<Long> lost) {
      this.lost = lost;
    }

    @Override
    public Completion of(List<OutboxRecord> rows) {
      List<Long> ids = ids(rows);
      made.add(ids);
      return new Completion() {
        private boolean done;

        @Override
        public void completeIn(Connection tx) {
          for (long id : ids) {
            if (lost.contains(id)) {
              throw new ClaimLostException(id);
            }
          }
          try (PreparedStatement update =
              tx.prepareStatement(
                  "UPDATE once.outbox SET state = 'delivered', delivered_at = now()"
                      + " WHERE id = ANY(?)")) {
            update.setArray(1, tx.createArrayOf("bigint", ids.toArray()));
            update.executeUpdate();
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
          done = true;
          joined.addAll(ids);
        }

        @Override
        public boolean joined() {
          return done;
        }
      };
    }

    @Override
    public boolean joined(OutboxRecord row) {
      return joined.contains(row.id());
    }
  }
}
