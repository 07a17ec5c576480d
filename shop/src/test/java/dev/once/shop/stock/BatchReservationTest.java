package dev.once.shop.stock;

import static dev.once.shop.support.EventDelivery.RELEASE_STOCK;
import static dev.once.shop.support.EventDelivery.RESERVE_STOCK;
import static dev.once.shop.support.OrderFixture.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.outbox.Completion;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.LockWaiters;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.OrderFixture.Stock;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code reserve-stock} and {@code release-stock} on their batch path ({@link Inbox#deliverAll}): a
 * batch decides exactly as one event after the other would, order by order all or none, with the
 * same events; and because a batch locks all its products first, once each and in one order, two
 * batches whose orders take shared products in crossing orders queue instead of deadlocking.
 */
@Timeout(120)
class BatchReservationTest extends ShopIntegrationTest {
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;
  @Autowired private DataSource dataSource;
  @Autowired private StockService stock;
  @Autowired private PlatformTransactionManager transactionManager;

  private EventDelivery events;

  @BeforeEach
  void delivery() {
    events = new EventDelivery(jdbc, inbox, consumers);
  }

  @Test
  void theStockConsumersTakeBatches() {
    assertThat(consumer(RESERVE_STOCK).types()).containsExactly(ShopEvents.ORDER_PLACED);
    assertThat(consumer(RELEASE_STOCK).types()).containsExactly(ShopEvents.ORDER_CANCELLED);
  }

  @Test
  void aBatchCompetingForTheLastUnitsDecidesAsOnePlacementAfterTheOther() throws Exception {
    List<Map<String, Long>> wanted =
        List.of(
            lines("X", 3, "Z", 1), // held: X 2 left
            lines("Y", 1, "X", 3), // rejected: X short
            lines("X", 2), // held: X 0 left
            lines("Z", 2, "Y", 2), // held: Y 0 left
            lines("Y", 1), // rejected: Y short
            lines("Z", 1, "Y", 1, "X", 1), // rejected: X and Y short
            lines("Z", 1)); // cancelled before its placement arrives: nothing
    Shop batched = new Shop(newClient(), wanted);
    Shop alone = new Shop(newClient(), wanted);

    batched.cancelLast();
    alone.cancelLast();
    List<InboxMessage> batch = new ArrayList<>(batched.placements());
    batch.add(EventDelivery.copy(batch.get(0))); // a copy: the decision again, no stock moves
    assertThat(inbox.deliverAll(consumer(RESERVE_STOCK), batch, Completion.NONE))
        .hasSize(batch.size());
    List<InboxMessage> oneByOne = new ArrayList<>(alone.placements());
    oneByOne.add(EventDelivery.copy(oneByOne.get(0)));
    for (InboxMessage placement : oneByOne) {
      assertThat(events.deliver(RESERVE_STOCK, placement)).isTrue();
    }

    assertThat(batched.outcome()).isEqualTo(alone.outcome());
    assertThat(batched.shop.reservations(batched.orders.get(0)))
        .isEqualTo(Map.of("X", "held", "Z", "held"));
    assertThat(batched.decisions(0)).containsExactly("stock.reserved []", "stock.reserved []");
    assertThat(batched.decisions(1)).containsExactly("stock.rejected [\"X\"]");
    assertThat(batched.decisions(2)).containsExactly("stock.reserved []");
    assertThat(batched.decisions(3)).containsExactly("stock.reserved []");
    assertThat(batched.decisions(4)).containsExactly("stock.rejected [\"Y\"]");
    assertThat(batched.decisions(5)).containsExactly("stock.rejected [\"X\",\"Y\"]");
    assertThat(batched.decisions(6)).isEmpty();
    assertThat(batched.shop.reservations(batched.orders.get(6))).isEqualTo(Map.of("Z", "void"));
    assertThat(batched.shop.stock("X")).isEqualTo(new Stock(0, 5));
    assertThat(batched.shop.stock("Y")).isEqualTo(new Stock(0, 2));
    assertThat(batched.shop.stock("Z")).isEqualTo(new Stock(7, 3));
  }

  @Test
  void aBatchOfCancellationsReleasesEachOrderOnceAsOneAfterTheOther() throws Exception {
    List<Map<String, Long>> wanted = List.of(lines("X", 2, "Y", 1), lines("Y", 1), lines("Z", 4));
    Shop shop = new Shop(newClient(), wanted);
    for (InboxMessage placement : shop.placements()) {
      events.deliver(RESERVE_STOCK, placement);
    }
    List<InboxMessage> cancellations = new ArrayList<>();
    for (String order : shop.orders) {
      shop.shop.cancel(order);
      cancellations.add(events.event(order, ShopEvents.ORDER_CANCELLED));
    }
    cancellations.add(1, EventDelivery.copy(cancellations.get(0)));

    inbox.deliverAll(consumer(RELEASE_STOCK), cancellations, Completion.NONE);

    for (String order : shop.orders) {
      assertThat(shop.shop.reservations(order).values()).as(order).containsOnly("released");
    }
    assertThat(shop.shop.stock("X")).isEqualTo(new Stock(5, 0));
    assertThat(shop.shop.stock("Y")).isEqualTo(new Stock(2, 0));
    assertThat(shop.shop.stock("Z")).isEqualTo(new Stock(10, 0));
  }

  /**
   * The batch's cost stays linear in its size: each product's row is updated once per batch,
   * however many of the batch's orders take it (updated once per order, every later statement of
   * the transaction walks the chain of row versions the earlier ones left). Counted by the
   * transaction's own statistics, as a difference: the view also holds counts of the connection's
   * earlier transactions that are not yet flushed.
   */
  @Test
  void aBatchUpdatesEachOfItsProductsOnceWhetherItReservesOrReleases() {
    TestClient client = newClient();
    OrderFixture shop = new OrderFixture(client, jdbc);
    shop.product("X", 100);
    shop.product("Y", 100);
    String account = client.openAccount("EUR");
    List<ShopEvents.OrderPlaced> orders = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String order = shop.place(account, i % 2 == 0 ? lines("X", 1, "Y", 2) : lines("X", 3));
      orders.add(
          new ShopEvents.OrderPlaced(
              order,
              client.id(),
              i % 2 == 0
                  ? List.of(new ShopEvents.Line("X", 1), new ShopEvents.Line("Y", 2))
                  : List.of(new ShopEvents.Line("X", 3))));
    }

    long productUpdates =
        new TransactionTemplate(transactionManager)
            .execute(
                status -> {
                  long before = productUpdates();
                  assertThat(stock.reserveAll(orders))
                      .allSatisfy(outcome -> assertThat(outcome).isPresent());
                  return productUpdates() - before;
                });

    assertThat(productUpdates).isEqualTo(2);
    assertThat(shop.stock("X")).isEqualTo(new Stock(60, 40));
    assertThat(shop.stock("Y")).isEqualTo(new Stock(80, 20));

    // Their cancellations as one batch, each order twice: the same, one update per product.
    List<ShopEvents.OrderCancelled> cancellations = new ArrayList<>();
    for (ShopEvents.OrderPlaced order : orders) {
      for (int copy = 0; copy < 2; copy++) {
        cancellations.add(
            new ShopEvents.OrderCancelled(order.orderId(), order.clientId(), order.items()));
      }
    }
    List<List<String>> released = new ArrayList<>();
    long releaseUpdates =
        new TransactionTemplate(transactionManager)
            .execute(
                status -> {
                  long before = productUpdates();
                  released.addAll(stock.releaseAll(cancellations));
                  return productUpdates() - before;
                });

    assertThat(releaseUpdates).isEqualTo(2);
    assertThat(released.get(0)).containsExactly("X", "Y");
    assertThat(released.get(1)).as("the copy releases nothing").isEmpty();
    assertThat(released.get(2)).containsExactly("X");
    assertThat(shop.stock("X")).isEqualTo(new Stock(100, 0));
    assertThat(shop.stock("Y")).isEqualTo(new Stock(100, 0));
  }

  /**
   * The deadlock of per-order locking, forced: batch A (order 1 on K1 and K3, then order 2 on K2)
   * and batch B (order 3 on K2 and K5, then order 4 on K1) start while the test holds K1. Locking
   * per order, A would wait for K1 holding nothing, B lock K2 and K5 and then wait for K1 too; once
   * K1 is free A (first in its queue) would take K1 and K3 and wait for K2, which B holds while it
   * waits for K1. Locking the batch's products first, both wait for K1 holding nothing, and then
   * run one after the other.
   */
  @Test
  void batchesWhoseOrdersCrossOnSharedProductsQueueInsteadOfDeadlocking() throws Exception {
    TestClient client = newClient();
    OrderFixture shop = new OrderFixture(client, jdbc);
    for (String sku : List.of("K1", "K2", "K3", "K5")) {
      shop.product(sku, 100);
    }
    String account = client.openAccount("EUR");
    List<InboxMessage> a =
        List.of(
            placement(shop.place(account, lines("K1", 1, "K3", 1))),
            placement(shop.place(account, lines("K2", 1))));
    List<InboxMessage> b =
        List.of(
            placement(shop.place(account, lines("K2", 1, "K5", 1))),
            placement(shop.place(account, lines("K1", 1))));

    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Connection lock = dataSource.getConnection()) {
      lock.setAutoCommit(false);
      try (PreparedStatement select =
          lock.prepareStatement(
              "SELECT 1 FROM product WHERE client_id = ? AND sku = 'K1' FOR UPDATE")) {
        select.setString(1, client.id());
        select.executeQuery().close();
      }
      Future<Object> first = pool.submit(LockWaiters.attempt(() -> deliverAll(a)));
      LockWaiters.await(jdbc, 1, "batches waiting for K1");
      Future<Object> second = pool.submit(LockWaiters.attempt(() -> deliverAll(b)));
      LockWaiters.await(jdbc, 2, "batches waiting for K1");
      lock.rollback();

      assertThat(first.get(60, TimeUnit.SECONDS)).as("batch A").isEqualTo(2);
      assertThat(second.get(60, TimeUnit.SECONDS)).as("batch B").isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
    assertThat(shop.stock("K1")).isEqualTo(new Stock(98, 2));
    assertThat(shop.stock("K2")).isEqualTo(new Stock(98, 2));
    assertThat(shop.stock("K3")).isEqualTo(new Stock(99, 1));
    assertThat(shop.stock("K5")).isEqualTo(new Stock(99, 1));
  }

  /** The product updates the current transaction's connection counts; see the test above. */
  private long productUpdates() {
    return jdbc.sql("SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'product'")
        .query(Long.class)
        .single();
  }

  private int deliverAll(List<InboxMessage> batch) throws Exception {
    return inbox.deliverAll(consumer(RESERVE_STOCK), batch, Completion.NONE).size();
  }

  private InboxMessage placement(String order) {
    return events.event(order, ShopEvents.ORDER_PLACED);
  }

  private BatchInboxConsumer consumer(String name) {
    InboxConsumer consumer =
        consumers.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    assertThat(consumer).as(name).isInstanceOf(BatchInboxConsumer.class);
    return (BatchInboxConsumer) consumer;
  }

  /** One client's products X (5), Y (2), Z (10) and its orders of {@code wanted}, placed. */
  private final class Shop {
    final OrderFixture shop;
    final List<String> orders = new ArrayList<>();

    Shop(TestClient client, List<Map<String, Long>> wanted) {
      shop = new OrderFixture(client, jdbc);
      shop.product("X", 5);
      shop.product("Y", 2);
      shop.product("Z", 10);
      String account = client.openAccount("EUR");
      for (Map<String, Long> lines : wanted) {
        orders.add(shop.place(account, lines));
      }
    }

    /** Cancels the last order and delivers its cancellation, before its placement. */
    void cancelLast() {
      String last = orders.get(orders.size() - 1);
      shop.cancel(last);
      events.deliver(RELEASE_STOCK, last, ShopEvents.ORDER_CANCELLED);
    }

    List<InboxMessage> placements() {
      return orders.stream().map(BatchReservationTest.this::placement).toList();
    }

    /** The decisions published for the {@code i}th order: type and short skus, in order. */
    List<String> decisions(int i) {
      return jdbc
          .sql(
              """
              SELECT type || ' ' || (payload -> 'shortSkus')::text FROM once.outbox
              WHERE aggregate_id = :order AND type IN ('stock.reserved', 'stock.rejected')
              ORDER BY id
              """)
          .param("order", orders.get(i))
          .query(String.class)
          .list()
          .stream()
          .map(d -> d.replace(", ", ","))
          .toList();
    }

    /**
     * Per order its reservations and decisions, then the stock: what must not depend on batching.
     */
    List<Object> outcome() {
      List<Object> outcome = new ArrayList<>();
      for (int i = 0; i < orders.size(); i++) {
        outcome.add(shop.reservations(orders.get(i)));
        outcome.add(decisions(i));
      }
      for (String sku : List.of("X", "Y", "Z")) {
        outcome.add(shop.stock(sku));
      }
      return outcome;
    }
  }
}
