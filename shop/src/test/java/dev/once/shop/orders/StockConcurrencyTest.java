package dev.once.shop.orders;

import static dev.once.shop.support.EventDelivery.ORDERS;
import static dev.once.shop.support.EventDelivery.RELEASE_STOCK;
import static dev.once.shop.support.EventDelivery.RESERVE_STOCK;
import static dev.once.shop.support.OrderFixture.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.inbox.InboxMessage;
import dev.once.shop.events.ShopEvents;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.LockWaiters;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.OrderFixture.Stock;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Stock under real concurrency: threads released together by a latch place orders over HTTP and
 * deliver their events through the inbox at once. Whatever the interleaving, stock never goes
 * negative, every order is held whole or not at all, a release gives back exactly what was held,
 * and the sku-ordered product locks keep reservations and releases of orders that share products
 * (listed in opposite orders) from deadlocking.
 */
class StockConcurrencyTest extends ShopIntegrationTest {
  private static final int THREADS = 50;
  private static final List<String> SKUS = List.of("S1", "S2", "S3");
  private static final long UNITS = 10;

  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;
  @Autowired private DataSource dataSource;

  private EventDelivery events;
  private OrderFixture shop;
  private TestClient client;
  private String account;

  @BeforeEach
  void scarceStock() {
    events = new EventDelivery(jdbc, inbox, consumers);
    client = newClient();
    shop = new OrderFixture(client, jdbc);
    account = client.openAccount("EUR");
    for (String sku : SKUS) {
      shop.product(sku, UNITS);
    }
  }

  @Test
  void fiftyOrdersCompetingForScarceStockAreEachHeldWholeOrNotAtAll() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<Map<String, Long>> wanted = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      List<String> skus = new ArrayList<>(SKUS);
      Collections.shuffle(skus, random);
      Map<String, Long> order = new LinkedHashMap<>();
      for (String sku : skus.subList(0, 1 + random.nextInt(SKUS.size()))) {
        order.put(sku, 1L + random.nextInt(3));
      }
      wanted.add(order);
    }

    List<ShopResponse> placed =
        race(
            THREADS,
            i -> () -> client.post("/v1/orders", OrderFixture.orderBody(account, wanted.get(i))));
    List<String> orders = new ArrayList<>();
    for (ShopResponse answer : placed) {
      orders.add(answer.assertStatus(201).text("id"));
    }
    List<InboxMessage> placements =
        orders.stream().map(order -> events.event(order, ShopEvents.ORDER_PLACED)).toList();

    List<Throwable> failures =
        failures(
            race(
                THREADS,
                i -> LockWaiters.attempt(() -> events.deliver(RESERVE_STOCK, placements.get(i)))));

    String why = "seed " + seed + ", orders " + wanted;
    assertThat(failures).as(why).isEmpty();
    Map<String, Long> held = new HashMap<>();
    int reservedOrders = 0;
    for (int i = 0; i < THREADS; i++) {
      String order = orders.get(i);
      Map<String, String> states = shop.reservations(order);
      assertThat(states.keySet()).as(why).isEqualTo(wanted.get(i).keySet());
      assertThat(states.values())
          .as("%s whole or nothing; %s", order, why)
          .containsOnly(states.values().iterator().next());
      String state = states.values().iterator().next();
      assertThat(state).isIn("held", "rejected");
      boolean reserved = state.equals("held");
      assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isEqualTo(reserved ? 1 : 0);
      assertThat(events.count(order, ShopEvents.STOCK_REJECTED)).isEqualTo(reserved ? 0 : 1);
      if (reserved) {
        reservedOrders++;
        wanted.get(i).forEach((sku, quantity) -> held.merge(sku, quantity, Long::sum));
      }
    }
    assertThat(reservedOrders).as("some orders fit; %s", why).isPositive();
    for (String sku : SKUS) {
      Stock stock = shop.stock(sku);
      assertThat(stock.available()).as(sku).isNotNegative();
      assertThat(stock.available() + stock.reserved()).as(sku).isEqualTo(UNITS);
      assertThat(stock.reserved())
          .as("%s: the reserved orders' lines; %s", sku, why)
          .isEqualTo(held.getOrDefault(sku, 0L));
    }
    // A rejected order was short of something: what it wanted could not all fit in what is left.
    for (int i = 0; i < THREADS; i++) {
      if (shop.reservations(orders.get(i)).containsValue("rejected")) {
        assertThat(wanted.get(i).entrySet())
            .as("%s rejected with enough of everything left; %s", orders.get(i), why)
            .anyMatch(line -> shop.stock(line.getKey()).available() < line.getValue());
      }
    }

    // The outcomes move the orders, concurrently too.
    assertThat(
            failures(
                race(
                    THREADS,
                    i ->
                        LockWaiters.attempt(
                            () -> {
                              String order = orders.get(i);
                              String type =
                                  events.count(order, ShopEvents.STOCK_RESERVED) == 1
                                      ? ShopEvents.STOCK_RESERVED
                                      : ShopEvents.STOCK_REJECTED;
                              return events.deliver(ORDERS, order, type);
                            }))))
        .isEmpty();
    for (String order : orders) {
      assertThat(shop.status(order))
          .isEqualTo(shop.reservations(order).containsValue("held") ? "reserved" : "rejected");
    }
  }

  @Test
  void aCancellationRacingTheReservationLeavesTheStockAsItWas() throws Exception {
    int count = THREADS / 2;
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      // Each order alone fits; together they compete, and every one is cancelled.
      orders.add(
          shop.place(
              account, i % 2 == 0 ? lines("S1", 2, "S3", 1) : lines("S3", 1, "S2", 3, "S1", 1)));
    }
    for (String order : orders) {
      shop.cancel(order);
    }

    List<Throwable> failures =
        failures(
            race(
                2 * count,
                i ->
                    LockWaiters.attempt(
                        () ->
                            i % 2 == 0
                                ? events.deliver(
                                    RESERVE_STOCK, orders.get(i / 2), ShopEvents.ORDER_PLACED)
                                : events.deliver(
                                    RELEASE_STOCK,
                                    orders.get(i / 2),
                                    ShopEvents.ORDER_CANCELLED))));

    assertThat(failures).isEmpty();
    for (String sku : SKUS) {
      assertThat(shop.stock(sku)).as(sku).isEqualTo(new Stock(UNITS, 0));
    }
    for (String order : orders) {
      Map<String, String> states = shop.reservations(order);
      assertThat(states.values()).as(order).containsAnyOf("void", "released", "rejected");
      assertThat(states.values()).as(order).doesNotContain("held");
      // Released means it was held first and said so; void means the reservation never happened.
      assertThat(events.count(order, ShopEvents.STOCK_RESERVED))
          .as(order)
          .isEqualTo(states.containsValue("released") ? 1 : 0);
    }
  }

  @Test
  void anHttpCancellationRacingTheReservationOfAReservedOrderGivesEverythingBack()
      throws Exception {
    int count = THREADS / 2;
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      orders.add(shop.place(account, lines("S1", 1)));
    }
    for (String order : orders.subList(0, 10)) {
      events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
      events.deliver(ORDERS, order, ShopEvents.STOCK_RESERVED);
    }

    // Every order is cancelled over HTTP while its placement (a copy for the reserved ones) is
    // delivered; then the cancellations and another copy of the placement race.
    List<Object> first =
        race(
            2 * count,
            i ->
                i % 2 == 0
                    ? LockWaiters.attempt(() -> shop.cancel(orders.get(i / 2)))
                    : LockWaiters.attempt(
                        () ->
                            events.deliver(
                                RESERVE_STOCK,
                                EventDelivery.copy(
                                    events.event(orders.get(i / 2), ShopEvents.ORDER_PLACED)))));
    assertThat(failures(first)).isEmpty();
    List<Object> second =
        race(
            2 * count,
            i ->
                LockWaiters.attempt(
                    () ->
                        i % 2 == 0
                            ? events.deliver(
                                RELEASE_STOCK, orders.get(i / 2), ShopEvents.ORDER_CANCELLED)
                            : events.deliver(
                                RESERVE_STOCK,
                                EventDelivery.copy(
                                    events.event(orders.get(i / 2), ShopEvents.ORDER_PLACED)))));
    assertThat(failures(second)).isEmpty();

    assertThat(shop.stock("S1")).isEqualTo(new Stock(UNITS, 0));
    for (String order : orders) {
      assertThat(shop.status(order)).isEqualTo("cancelled");
      // S1 has 10 units for 25 orders: those that did not fit are rejected.
      assertThat(shop.reservations(order).values())
          .as(order)
          .containsAnyOf("void", "released", "rejected")
          .doesNotContain("held");
    }
  }

  @Test
  void fiftyConcurrentCopiesOfOnePlacementReserveOnceAndFiftyCancellationsReleaseOnce()
      throws Exception {
    // S2: 6 of 10, so that once the first copy holds them, too few are left for a second one.
    String order = shop.place(account, lines("S2", 6, "S1", 3));
    InboxMessage placed = events.event(order, ShopEvents.ORDER_PLACED);

    assertThat(
            failures(
                race(
                    THREADS,
                    i ->
                        LockWaiters.attempt(
                            () -> events.deliver(RESERVE_STOCK, EventDelivery.copy(placed))))))
        .isEmpty();

    assertThat(shop.stock("S1")).isEqualTo(new Stock(7, 3));
    assertThat(shop.stock("S2")).isEqualTo(new Stock(4, 6));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("S1", "held", "S2", "held"));
    // Every copy reports the one decision; none may contradict it.
    assertThat(events.count(order, ShopEvents.STOCK_REJECTED))
        .as("stock.rejected published for an order whose stock is held")
        .isZero();
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isEqualTo(THREADS);

    // Whatever order the outcomes arrive in, the order ends reserved.
    for (InboxMessage outcome : events.events(order, ShopEvents.STOCK_REJECTED)) {
      events.deliver(ORDERS, outcome);
    }
    for (InboxMessage outcome : events.events(order, ShopEvents.STOCK_RESERVED)) {
      events.deliver(ORDERS, outcome);
    }
    assertThat(shop.status(order)).isEqualTo("reserved");
    shop.cancel(order);
    InboxMessage cancelled = events.event(order, ShopEvents.ORDER_CANCELLED);
    assertThat(
            failures(
                race(
                    THREADS,
                    i ->
                        LockWaiters.attempt(
                            () ->
                                events.deliver(
                                    RELEASE_STOCK,
                                    i % 5 == 0 ? cancelled : EventDelivery.copy(cancelled))))))
        .isEmpty();

    assertThat(shop.stock("S1")).isEqualTo(new Stock(UNITS, 0));
    assertThat(shop.stock("S2")).isEqualTo(new Stock(UNITS, 0));
    assertThat(shop.reservations(order)).isEqualTo(Map.of("S1", "released", "S2", "released"));
    assertThat(events.inboxRecords(RELEASE_STOCK, cancelled.messageId())).isEqualTo(1);
  }

  @Test
  void reservationsAndReleasesOfOrdersListingSharedProductsInOppositeOrdersDoNotDeadlock()
      throws Exception {
    TestClient rich = newClient();
    OrderFixture plenty = new OrderFixture(rich, jdbc);
    String richAccount = rich.openAccount("EUR");
    List<String> skus = List.of("D1", "D2", "D3", "D4", "D5");
    for (String sku : skus) {
      plenty.product(sku, 1_000);
    }
    List<String> ascending = new ArrayList<>();
    List<String> descending = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      Map<String, Long> lines = new LinkedHashMap<>();
      List<String> order = new ArrayList<>(skus);
      if (i % 2 == 1) {
        Collections.reverse(order);
      }
      order.forEach(sku -> lines.put(sku, 1L));
      (i % 2 == 0 ? ascending : descending).add(plenty.place(richAccount, lines));
    }
    // The first 20 (ten of each kind) reserved and cancelled: their releases race the
    // reservations of the other 30.
    List<String> placed = new ArrayList<>();
    for (int i = 0; i < THREADS / 2; i++) {
      placed.add(ascending.get(i));
      placed.add(descending.get(i));
    }
    List<String> toRelease = placed.subList(0, 20);
    List<String> toReserve = placed.subList(20, THREADS);
    for (String order : toRelease) {
      events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED);
      plenty.cancel(order);
    }
    List<String> all = new ArrayList<>(toRelease);
    all.addAll(toReserve);

    List<Object> outcomes =
        race(
            all.size(),
            i ->
                LockWaiters.attempt(
                    () ->
                        i < toRelease.size()
                            ? events.deliver(RELEASE_STOCK, all.get(i), ShopEvents.ORDER_CANCELLED)
                            : events.deliver(RESERVE_STOCK, all.get(i), ShopEvents.ORDER_PLACED)));

    List<Throwable> failures = failures(outcomes);
    assertThat(failures.stream().map(StockConcurrencyTest::sqlStates).flatMap(List::stream))
        .as("deadlocks (40P01)")
        .doesNotContain("40P01");
    assertThat(failures).isEmpty();
    assertThat(outcomes).as("every delivery completed and was applied").containsOnly(true);
    for (String sku : skus) {
      assertThat(plenty.stock(sku))
          .as(sku)
          .isEqualTo(new Stock(1_000 - toReserve.size(), toReserve.size()));
    }
    for (String order : toRelease) {
      assertThat(plenty.reservations(order).values()).as(order).containsOnly("released");
    }
    for (String order : toReserve) {
      assertThat(plenty.reservations(order).values()).as(order).containsOnly("held");
    }
  }

  @Test
  void aCopyQueuedBehindTheFirstReservationReportsItsDecision() throws Exception {
    // 6 of S1's 10: once the first copy holds them, a second one would find too few.
    String order = shop.place(account, lines("S2", 1, "S1", 6));
    InboxMessage placed = events.event(order, ShopEvents.ORDER_PLACED);

    List<Object> outcomes =
        queuedForS1(
            List.of(
                () -> events.deliver(RESERVE_STOCK, EventDelivery.copy(placed)),
                () -> events.deliver(RESERVE_STOCK, EventDelivery.copy(placed))));

    assertThat(failures(outcomes)).isEmpty();
    assertThat(shop.stock("S1")).isEqualTo(new Stock(4, 6));
    assertThat(shop.stock("S2")).isEqualTo(new Stock(9, 1));
    assertThat(events.count(order, ShopEvents.STOCK_REJECTED))
        .as("the second copy contradicts the first")
        .isZero();
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED)).isEqualTo(2);
  }

  @Test
  void aPlacementQueuedBehindTheCancellationReservesNothingAndReportsNothing() throws Exception {
    String order = shop.place(account, lines("S1", 2));
    shop.cancel(order);

    List<Object> outcomes =
        queuedForS1(
            List.of(
                () -> events.deliver(RELEASE_STOCK, order, ShopEvents.ORDER_CANCELLED),
                () -> events.deliver(RESERVE_STOCK, order, ShopEvents.ORDER_PLACED)));

    assertThat(failures(outcomes)).isEmpty();
    assertThat(shop.reservations(order)).isEqualTo(Map.of("S1", "void"));
    assertThat(shop.stock("S1")).isEqualTo(new Stock(UNITS, 0));
    assertThat(events.count(order, ShopEvents.STOCK_RESERVED))
        .as("stock.reserved for an order that holds nothing")
        .isZero();
  }

  /**
   * Starts the tasks one by one while the test holds product S1's row lock, each only once the ones
   * before it wait for that lock, then lets them all go: they run in that order, each behind a
   * decision that committed after its statement began.
   */
  private List<Object> queuedForS1(List<Callable<?>> tasks) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try (Connection lock = dataSource.getConnection()) {
      lock.setAutoCommit(false);
      try (PreparedStatement select =
          lock.prepareStatement(
              "SELECT 1 FROM product WHERE client_id = ? AND sku = 'S1' FOR UPDATE")) {
        select.setString(1, client.id());
        select.executeQuery().close();
      }
      List<Future<Object>> futures = new ArrayList<>();
      for (int i = 0; i < tasks.size(); i++) {
        futures.add(pool.submit(LockWaiters.attempt(tasks.get(i))));
        LockWaiters.await(jdbc, i + 1, "deliveries waiting for S1");
      }
      lock.rollback();
      List<Object> outcomes = new ArrayList<>();
      for (Future<Object> future : futures) {
        outcomes.add(future.get(60, TimeUnit.SECONDS));
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Throwable> failures(List<?> outcomes) {
    return outcomes.stream()
        .filter(Throwable.class::isInstance)
        .map(Throwable.class::cast)
        .toList();
  }

  /** The SQL states in an exception's cause chain. */
  private static List<String> sqlStates(Throwable e) {
    List<String> states = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        states.add(sql.getSQLState());
      }
    }
    return states;
  }

  /**
   * Runs {@code n} tasks on {@code n} threads, all released by one latch once every thread is
   * ready, and collects their results in order; fails if one does not finish within a minute.
   */
  private static <T> List<T> race(int n, IntFunction<Callable<? extends T>> task)
      throws InterruptedException, ExecutionException {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Callable<? extends T> call = task.apply(i);
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return call.call();
                }));
      }
      assertThat(ready.await(30, TimeUnit.SECONDS)).as("all threads ready").isTrue();
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        try {
          results.add(future.get(60, TimeUnit.SECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
          throw new AssertionError("a racing task did not finish within a minute (stuck?)", e);
        }
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
