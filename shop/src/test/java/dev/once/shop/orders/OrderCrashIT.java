package dev.once.shop.orders;

import static dev.once.shop.support.EventDelivery.ORDERS;
import static dev.once.shop.support.EventDelivery.RELEASE_STOCK;
import static dev.once.shop.support.EventDelivery.RESERVE_STOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.shop.events.ShopEvents;
import dev.once.shop.support.ChildShop;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.net.http.HttpRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * G2 and G5 for orders with a real SIGKILL: a shop JVM whose relay is reserving stock is killed
 * while clients place orders through it and while some reservations are inside their inbox
 * transaction; a second shop on the same database finishes the work. Then reserved orders are
 * cancelled through the second shop, which is killed in the middle of their releases, and a third
 * shop finishes them. Whatever was cut off, every acknowledged order exists once and every
 * placement retried with its key gives one order, every order ends reserved or rejected, every
 * reserved order holds each line exactly once, every cancelled one gave its units back once, each
 * event took effect once, and every product's stock balances against the orders that hold it.
 *
 * <p>The kills land in a reservation or release deterministically: a test transaction holds the
 * lock of one product, so the consumer transactions of the orders that include it wait inside their
 * inbox transaction (the inbox record written, the stock not yet) until the JVM dies. That product
 * sorts before every other, so a waiting transaction holds no other product's lock and the other
 * orders keep being reserved around it.
 */
class OrderCrashIT extends ShopIntegrationTest {
  /** Sorts before the others: an order that waits for it holds no other product's lock. */
  private static final String HOT = "A0-HOT";

  private static final List<String> SKUS = List.of("S1", "S2", "S3", "S4");
  private static final long HOT_UNITS = 2;
  private static final long UNITS = 25;

  /** Orders (by sequence number) that include {@link #HOT}: they wait on its lock. */
  private static final Set<Integer> HOT_ORDERS = Set.of(3, 13, 23);

  private static final int PLACERS = 6;
  private static final int MAX_ORDERS = 400;
  private static final int ACKNOWLEDGED_BEFORE_KILL = 40;
  private static final int MAX_CANCELLED = 12;

  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final Duration POLL = Duration.ofMillis(20);

  private static final String LOCKING_STATEMENT = "%FOR UPDATE OF p%";

  private static final List<String> RELAY_ON =
      List.of(
          "--once.outbox.relay.enabled=true",
          // Fewer workers than the pool's 20 connections: the waiting ones hold theirs, and the
          // requests still find one.
          "--once.outbox.relay.workers=8",
          // The killed JVM's claims expire soon, so the next shop takes its rows over quickly.
          "--once.outbox.relay.lease=3s",
          // Delivered rows stay for the assertions that count them.
          "--once.outbox.relay.delivered-retention=1h");

  private static final Logger log = LoggerFactory.getLogger(OrderCrashIT.class);

  @Autowired private Environment environment;

  private record Placement(String key, String body) {}

  @Test
  void killedWhileReservingAndWhileReleasingMovesStockExactlyOnce() throws Exception {
    TestClient client = newClient();
    String account = client.openAccount("EUR");
    OrderFixture shop = new OrderFixture(client, jdbc);
    Map<String, Long> initial = new TreeMap<>();
    initial.put(HOT, HOT_UNITS);
    SKUS.forEach(sku -> initial.put(sku, UNITS));
    initial.forEach(shop::product);
    long seed = System.nanoTime();
    String why = "seed " + seed;

    Map<String, Placement> placements = new ConcurrentHashMap<>();
    Map<String, String> acknowledged = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Placement> cutOff = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    AtomicInteger busy = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(PLACERS);
    List<ChildShop> children = new ArrayList<>();
    try {
      // 1. Kill a shop while orders are placed through it and reservations are in flight.
      try (RowLock blocker = lockProduct(client.id(), HOT)) {
        ChildShop first = start(children);
        ShopHttp firstHttp = first.http();
        // The child learns the key once, before the placers send it all at once.
        firstHttp.get("/v1/accounts/" + account, client.apiKey()).assertStatus(200);
        AtomicInteger sequence = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<?>> placers = new ArrayList<>();
        for (int t = 0; t < PLACERS; t++) {
          placers.add(
              threads.submit(
                  () -> {
                    while (!stop.get()) {
                      int n = sequence.getAndIncrement();
                      if (n >= MAX_ORDERS) {
                        return;
                      }
                      Placement placement =
                          new Placement(
                              "crash-order-" + n + "-" + ShopHttp.newKey(),
                              OrderFixture.orderBody(account, lines(seed, n)));
                      placements.put(placement.key(), placement);
                      ShopResponse answer;
                      try {
                        answer = place(firstHttp, client, placement);
                      } catch (RuntimeException connectionLost) {
                        cutOff.add(placement);
                        return;
                      }
                      if (answer.status() == 201) {
                        acknowledged.put(placement.key(), answer.text("id"));
                      } else if (answer.status() == 503) {
                        // "Retry the request": not acknowledged; the retry below repeats it.
                        busy.incrementAndGet();
                      } else {
                        unexpected.add(answer.status() + " " + answer.body());
                      }
                    }
                  }));
        }
        // The relay hands reserve-stock a batch of the order.placed rows it claimed together,
        // so the hot orders wait in one to three transactions (a cold order batched with a hot
        // one waits with it).
        await("orders acknowledged and reserved while the hot ones wait inside their reservation")
            .atMost(LIMIT)
            .pollInterval(POLL)
            .until(
                () ->
                    acknowledged.size() >= ACKNOWLEDGED_BEFORE_KILL
                        && statusCount(client.id(), "reserved") > 0
                        && statusCount(client.id(), "placed") > 0
                        && waitingFor(blocker) >= 1);
        first.kill();
        stop.set(true);
        for (Future<?> placer : placers) {
          placer.get(60, TimeUnit.SECONDS);
        }
        blocker.release();
      }
      assertThat(unexpected).as("answers other than 201 or 503 before the kill").isEmpty();
      log.info(
          "killed while placing: {} placements, {} acknowledged, {} cut off, {} answered 503",
          placements.size(),
          acknowledged.size(),
          cutOff.size(),
          busy.get());
      awaitNoOrphans();

      // 2. The next shop finishes the reservations; every placement retried gives one order.
      ChildShop second = start(children);
      TestClient secondClient = new TestClient(second.http(), client.id(), client.apiKey());
      Map<String, String> orderOfKey = new HashMap<>();
      for (Placement placement : placements.values()) {
        ShopResponse answer = place(second.http(), client, placement).assertStatus(201);
        String id = answer.text("id");
        orderOfKey.put(placement.key(), id);
        if (acknowledged.containsKey(placement.key())) {
          assertThat(id)
              .as("the replay of %s", placement.key())
              .isEqualTo(acknowledged.get(placement.key()));
          assertThat(answer.header("Idempotent-Replayed")).hasValue("true");
        }
      }
      Set<String> orders = new TreeSet<>(orderOfKey.values());
      assertThat(orders).as("one order per key").hasSize(placements.size());
      assertThat(ordersOf(client.id())).as("the client's orders").isEqualTo(orders);
      assertThat(
              count(
                  "SELECT count(*) FROM orders WHERE id = ANY(?)",
                  acknowledged.values().toArray(String[]::new)))
          .as("every acknowledged order exists once")
          .isEqualTo(acknowledged.size());
      awaitSettled(client.id());

      assertThat(statusCount(client.id(), "placed")).as("orders left placed").isZero();
      assertThat(statusCount(client.id(), "reserved") + statusCount(client.id(), "rejected"))
          .as("orders reserved or rejected; %s", why)
          .isEqualTo(orders.size());
      assertEachOrderDecidedOnce(shop, orders, why);
      assertStockMatchesReservedOrders(client.id(), initial, why);
      log.info(
          "after the first restart: {} orders, {} reserved, {} rejected",
          orders.size(),
          statusCount(client.id(), "reserved"),
          statusCount(client.id(), "rejected"));

      // 3. Kill the second shop while it releases the stock of cancelled orders.
      List<String> cancelled;
      try (RowLock blocker = lockProduct(client.id(), HOT)) {
        cancelled = cancelTargets(client.id(), why);
        List<String> waiting =
            cancelled.stream().filter(order -> lineSkus(order).contains(HOT)).toList();
        // The cold orders first, all released before the hot ones are cancelled: release-stock
        // takes a batch of the rows claimed together, and a cold release batched with a hot one
        // would wait with it.
        List<String> cold = cancelled.stream().filter(order -> !waiting.contains(order)).toList();
        for (String order : cold) {
          new OrderFixture(secondClient, jdbc).cancel(order);
        }
        await("releases of the orders without the hot product done")
            .atMost(LIMIT)
            .pollInterval(POLL)
            .until(
                () ->
                    cold.stream()
                        .allMatch(order -> reservationStates(order).equals(Set.of("released"))));
        for (String order : waiting) {
          new OrderFixture(secondClient, jdbc).cancel(order);
        }
        await("the hot orders' releases wait inside their inbox transaction")
            .atMost(LIMIT)
            .pollInterval(POLL)
            .until(() -> waitingFor(blocker) >= 1);
        second.kill();
        blocker.release();
      }
      awaitNoOrphans();

      // 4. A third shop finishes the releases.
      start(children);
      awaitSettled(client.id());
      for (String order : cancelled) {
        assertThat(shop.status(order)).as(order).isEqualTo("cancelled");
        assertThat(reservationStates(order)).as("%s released", order).containsOnly("released");
        String message = event(order, ShopEvents.ORDER_CANCELLED);
        assertThat(inboxRecords(RELEASE_STOCK, message)).as("%s released once", order).isEqualTo(1);
      }
      assertStockMatchesReservedOrders(client.id(), initial, why);
      log.info(
          "after the second restart: {} cancelled ({} of them waiting at the kill); {} order"
              + " events delivered more than once",
          cancelled.size(),
          HOT_UNITS,
          jdbc.sql(
                  """
                  SELECT count(*) FROM once.outbox e JOIN orders o ON o.id = e.aggregate_id
                  WHERE o.client_id = ? AND e.attempts > 1
                  """)
              .param(client.id())
              .query(Long.class)
              .single());
    } finally {
      threads.shutdownNow();
      for (ChildShop child : children) {
        child.close();
      }
    }
  }

  private ChildShop start(List<ChildShop> children) throws Exception {
    ChildShop child = ChildShop.start(environment, RELAY_ON);
    children.add(child);
    return child;
  }

  /**
   * One unit of the hot product for {@link #HOT_ORDERS}: two of them fit, the third is rejected.
   * One to three lines of the plentiful products for the others.
   */
  private static Map<String, Long> lines(long seed, int n) {
    if (HOT_ORDERS.contains(n)) {
      return Map.of(HOT, 1L);
    }
    Random random = new Random(seed + n);
    List<String> skus = new ArrayList<>(SKUS);
    Collections.shuffle(skus, random);
    Map<String, Long> lines = new LinkedHashMap<>();
    for (String sku : skus.subList(0, 1 + random.nextInt(3))) {
      lines.put(sku, 1L + random.nextInt(3));
    }
    return lines;
  }

  private static ShopResponse place(ShopHttp http, TestClient client, Placement placement) {
    return http.send(
        http.request("/v1/orders")
            .header("Authorization", "Bearer " + client.apiKey())
            .header("Idempotency-Key", placement.key())
            .header("Content-Type", ShopHttp.JSON)
            .POST(HttpRequest.BodyPublishers.ofString(placement.body())));
  }

  /**
   * A transaction holding a product's row lock, and which waiters are queued on that row: the first
   * waits for the holder's transaction id, the others for the row's tuple lock.
   */
  private record RowLock(Connection connection, String xid, int page, int tuple)
      implements AutoCloseable {
    void release() throws SQLException {
      connection.rollback();
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  /** Locks the product's row in a transaction of its own; release or close to let go. */
  private static RowLock lockProduct(String client, String sku) throws SQLException {
    Connection connection = ownerDataSource().getConnection();
    try {
      connection.setAutoCommit(false);
      try (PreparedStatement lock =
          connection.prepareStatement(
              """
              SELECT pg_current_xact_id()::text, ctid::text FROM product
              WHERE client_id = ? AND sku = ? FOR UPDATE
              """)) {
        lock.setString(1, client);
        lock.setString(2, sku);
        try (ResultSet row = lock.executeQuery()) {
          assertThat(row.next()).as("product %s", sku).isTrue();
          String[] ctid = row.getString(2).replaceAll("[()]", "").split(",");
          return new RowLock(
              connection, row.getString(1), Integer.parseInt(ctid[0]), Integer.parseInt(ctid[1]));
        }
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** Sessions waiting for the locked row: consumer transactions stopped inside their inbox. */
  private long waitingFor(RowLock lock) {
    return jdbc.sql(
            """
            SELECT count(DISTINCT pid) FROM pg_locks
            WHERE NOT granted
              AND ((locktype = 'transactionid' AND transactionid::text = :xid)
                   OR (locktype = 'tuple' AND relation = 'product'::regclass
                       AND page = :page AND tuple = :tuple))
            """)
        .param("xid", lock.xid())
        .param("page", lock.page())
        .param("tuple", lock.tuple())
        .query(Long.class)
        .single();
  }

  /** Sessions waiting for any product's lock. */
  private long waitingOnProductLocks() {
    return jdbc.sql(
            """
            SELECT count(*) FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query ILIKE ? AND pid <> pg_backend_pid()
            """)
        .param(LOCKING_STATEMENT)
        .query(Long.class)
        .single();
  }

  /**
   * The killed JVM's sessions end once PostgreSQL notices their client is gone: the waiting ones
   * when they get the lock and answer. None of their transactions commits.
   */
  private void awaitNoOrphans() {
    await("the killed shop's reservations and releases ended")
        .atMost(LIMIT)
        .pollInterval(POLL)
        .until(() -> waitingOnProductLocks() == 0);
  }

  /** Waits until no order is placed and none of the orders' events is pending. */
  private void awaitSettled(String client) {
    await("every order decided and every order event delivered")
        .atMost(LIMIT)
        .pollInterval(POLL)
        .until(
            () ->
                jdbc.sql(
                        """
                        SELECT o.id || ' ' || o.status FROM orders o
                        WHERE o.client_id = :client AND o.status = 'placed'
                        UNION ALL
                        SELECT e.aggregate_id || ' ' || e.type || ' ' || e.state FROM once.outbox e
                        JOIN orders o ON o.id = e.aggregate_id
                        WHERE o.client_id = :client AND e.state <> 'delivered'
                        """)
                    .param("client", client)
                    .query(String.class)
                    .list(),
            List::isEmpty);
  }

  /**
   * Each order: one order.placed, taken once by reserve-stock; one outcome matching its status,
   * taken once by the orders consumer; its reservations one per line, held when reserved and
   * rejected when rejected.
   */
  private void assertEachOrderDecidedOnce(OrderFixture shop, Set<String> orders, String why) {
    for (String order : orders) {
      String status = shop.status(order);
      String placed = event(order, ShopEvents.ORDER_PLACED);
      assertThat(inboxRecords(RESERVE_STOCK, placed)).as("%s reserved once", order).isEqualTo(1);
      boolean reserved = status.equals("reserved");
      String outcomeType = reserved ? ShopEvents.STOCK_RESERVED : ShopEvents.STOCK_REJECTED;
      assertThat(
              eventCount(order, ShopEvents.STOCK_RESERVED)
                  + eventCount(order, ShopEvents.STOCK_REJECTED))
          .as("%s decided once (%s); %s", order, status, why)
          .isEqualTo(1);
      String outcome = event(order, outcomeType);
      assertThat(inboxRecords(ORDERS, outcome)).as("%s moved once", order).isEqualTo(1);
      List<String> lines =
          jdbc.sql(
                  """
                  SELECT i.sku || ' ' || i.quantity || ' ' || COALESCE(r.state, '-')
                  FROM order_item i
                  LEFT JOIN reservation r ON r.order_id = i.order_id AND r.sku = i.sku
                  AND r.quantity = i.quantity
                  WHERE i.order_id = ? ORDER BY i.sku
                  """)
              .param(order)
              .query(String.class)
              .list();
      String state = reserved ? "held" : "rejected";
      assertThat(lines)
          .as("%s (%s): every line %s once; %s", order, status, state, why)
          .allMatch(line -> line.endsWith(" " + state));
      assertThat(count("SELECT count(*) FROM reservation WHERE order_id = ?", order))
          .as("%s reservations", order)
          .isEqualTo(lines.size());
    }
    assertThat(
            jdbc.sql(
                    "SELECT count(*) FROM (SELECT 1 FROM once.inbox GROUP BY message_id, consumer"
                        + " HAVING count(*) > 1) d")
                .query(Long.class)
                .single())
        .as("duplicate inbox records")
        .isZero();
  }

  /**
   * Every product: its units are either available or held by the reserved orders, whose lines it
   * adds up exactly, and by the held reservations, which are those lines.
   */
  private void assertStockMatchesReservedOrders(
      String client, Map<String, Long> initial, String why) {
    for (Map.Entry<String, Long> product : initial.entrySet()) {
      String sku = product.getKey();
      long ordered =
          jdbc.sql(
                  """
                  SELECT COALESCE(sum(i.quantity), 0) FROM order_item i
                  JOIN orders o ON o.id = i.order_id
                  WHERE o.client_id = ? AND o.status = 'reserved' AND i.sku = ?
                  """)
              .params(client, sku)
              .query(Long.class)
              .single();
      long held =
          jdbc.sql(
                  """
                  SELECT COALESCE(sum(quantity), 0) FROM reservation
                  WHERE client_id = ? AND sku = ? AND state = 'held'
                  """)
              .params(client, sku)
              .query(Long.class)
              .single();
      OrderFixture.Stock stock =
          jdbc.sql("SELECT available, reserved FROM product WHERE client_id = ? AND sku = ?")
              .params(client, sku)
              .query((rs, row) -> new OrderFixture.Stock(rs.getLong(1), rs.getLong(2)))
              .single();
      assertThat(stock.reserved())
          .as("%s reserved = the reserved orders' lines; %s", sku, why)
          .isEqualTo(ordered);
      assertThat(held).as("%s held reservations; %s", sku, why).isEqualTo(ordered);
      assertThat(stock.available())
          .as("%s available; %s", sku, why)
          .isEqualTo(product.getValue() - ordered);
    }
  }

  /**
   * Reserved orders to cancel: the two that hold the hot product, whose releases wait on its lock,
   * and up to {@link #MAX_CANCELLED} others, whose releases commit before the kill.
   */
  private List<String> cancelTargets(String client, String why) {
    List<String> reserved =
        jdbc.sql("SELECT id FROM orders WHERE client_id = ? AND status = 'reserved' ORDER BY id")
            .param(client)
            .query(String.class)
            .list();
    List<String> hot = reserved.stream().filter(o -> lineSkus(o).contains(HOT)).toList();
    List<String> cold = reserved.stream().filter(o -> !lineSkus(o).contains(HOT)).toList();
    assertThat(hot).as("reserved orders of %s; %s", HOT, why).hasSize((int) HOT_UNITS);
    assertThat(cold).as("reserved orders without %s; %s", HOT, why).isNotEmpty();
    List<String> targets = new ArrayList<>(hot);
    targets.addAll(cold.subList(0, Math.min(cold.size(), MAX_CANCELLED)));
    return targets;
  }

  private List<String> lineSkus(String order) {
    return jdbc.sql("SELECT sku FROM order_item WHERE order_id = ?")
        .param(order)
        .query(String.class)
        .list();
  }

  private Set<String> reservationStates(String order) {
    return new TreeSet<>(
        jdbc.sql("SELECT state FROM reservation WHERE order_id = ?")
            .param(order)
            .query(String.class)
            .list());
  }

  private long statusCount(String client, String status) {
    return jdbc.sql("SELECT count(*) FROM orders WHERE client_id = ? AND status = ?")
        .params(client, status)
        .query(Long.class)
        .single();
  }

  private Set<String> ordersOf(String client) {
    return new TreeSet<>(
        jdbc.sql("SELECT id FROM orders WHERE client_id = ?")
            .param(client)
            .query(String.class)
            .list());
  }

  private long eventCount(String order, String type) {
    return jdbc.sql("SELECT count(*) FROM once.outbox WHERE aggregate_id = ? AND type = ?")
        .params(order, type)
        .query(Long.class)
        .single();
  }

  /** The message id of the order's one event of {@code type}. */
  private String event(String order, String type) {
    List<String> ids =
        jdbc.sql("SELECT message_id::text FROM once.outbox WHERE aggregate_id = ? AND type = ?")
            .params(order, type)
            .query(String.class)
            .list();
    assertThat(ids).as("%s events of %s", type, order).hasSize(1);
    return ids.get(0);
  }

  private long inboxRecords(String consumer, String messageId) {
    return jdbc.sql(
            "SELECT count(*) FROM once.inbox WHERE message_id = CAST(? AS uuid) AND consumer = ?")
        .params(messageId, consumer)
        .query(Long.class)
        .single();
  }

  private long count(String sql, Object param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }
}
