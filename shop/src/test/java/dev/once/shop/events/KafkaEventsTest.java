package dev.once.shop.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.events.EventTransport;
import dev.once.kafka.KafkaEventPublisher;
import dev.once.kafka.OnceHeaders;
import dev.once.shop.support.ConcurrentOrders;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopBroker;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The shop with {@code spring.kafka.bootstrap-servers} set (what {@code SHOP_KAFKA_BOOTSTRAP}
 * sets): orders are placed, reserved and paid with every event through a real broker, each consumer
 * a consumer group {@code once-shop.<consumer>}, each effect once, and an outside reader of the
 * topics finds every event, keyed by its aggregate, with its message id.
 */
@TestPropertySource(
    properties = {
      "once.outbox.relay.enabled=true",
      "once.outbox.relay.poll-interval=100ms",
      "once.outbox.relay.retry.initial-delay=10ms",
      "once.outbox.relay.retry.max-delay=100ms",
      // Delivered rows kept, so that a test counts the events published; no load shedding.
      "once.outbox.relay.delivered-retention=10m",
      "once.outbox.load-shedding.enabled=false",
      // The broker runs in this JVM and logs every partition it creates at INFO.
      "logging.level.kafka=WARN",
      "logging.level.state.change.logger=WARN"
    })
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Timeout(180)
class KafkaEventsTest extends ShopIntegrationTest {
  @DynamicPropertySource
  static void kafka(DynamicPropertyRegistry registry) {
    registry.add("spring.kafka.bootstrap-servers", ShopBroker::servers);
  }

  @Autowired private EventTransport transport;

  @Test
  void ordersAreReservedAndPaidWithEveryEventThroughKafka() throws Exception {
    assertThat(transport).isInstanceOf(KafkaEventPublisher.class);
    assertThat(transport.types())
        .contains(
            ShopEvents.ORDER_PLACED,
            ShopEvents.ORDER_CANCELLED,
            ShopEvents.STOCK_RESERVED,
            ShopEvents.STOCK_REJECTED,
            "payment.succeeded",
            "payment.failed");
    TestClient client = newClient();
    OrderFixture shop = new OrderFixture(client, jdbc);
    String account = client.openAccountWith("EUR", "1000.00");
    shop.product("KAFKA-1", 20);
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      orders.add(shop.place(account, OrderFixture.lines("KAFKA-1", 2)));
    }
    String rejected = shop.place(account, OrderFixture.lines("KAFKA-1", 50));

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> orders.stream().allMatch(o -> shop.status(o).equals("reserved")));
    await().atMost(Duration.ofSeconds(60)).until(() -> shop.status(rejected).equals("rejected"));
    List<String> payments = new ArrayList<>();
    for (String order : orders) {
      payments.add(shop.pay(order));
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> orders.stream().allMatch(o -> shop.status(o).equals("paid")));
    assertThat(shop.stock("KAFKA-1")).isEqualTo(new OrderFixture.Stock(8, 12));

    Set<String> placed = keys(ShopEvents.ORDER_PLACED);
    assertThat(placed).containsAll(orders).contains(rejected);
    assertThat(keys(ShopEvents.STOCK_RESERVED)).containsAll(orders);
    assertThat(keys(ShopEvents.STOCK_REJECTED)).contains(rejected);
    assertThat(keys("payment.succeeded")).containsAll(payments);
    // Each consumer applied each of these events once: one inbox record per message and consumer.
    assertThat(
            jdbc.sql(
                    "SELECT count(*) FROM once.inbox GROUP BY message_id, consumer HAVING count(*) > 1")
                .query(Long.class)
                .list())
        .isEmpty();
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, ShopBroker.servers()))) {
      Set<String> groups =
          admin.listConsumerGroups().all().get().stream()
              .map(ConsumerGroupListing::groupId)
              .collect(Collectors.toSet());
      assertThat(groups)
          .contains("once-shop.reserve-stock", "once-shop.release-stock", "once-shop.orders");
    }
  }

  /**
   * {@link ConcurrentOrders} through Kafka: the placements reach {@code reserve-stock} as records
   * of its consumer group (in batches, a poll's records, once the listeners take them so).
   */
  @Test
  void fiftyConcurrentOrdersOnSixProductsAreEachDecidedOnceWithoutDeadlock() throws Exception {
    ConcurrentOrders.placeAndCheck(newClient(), jdbc, "KFK", Duration.ofSeconds(120));
  }

  /** The keys of {@code topic}'s records; asserts each carries its message id and type. */
  private static Set<String> keys(String topic) {
    List<ConsumerRecord<String, String>> records = ShopBroker.readAll(topic);
    for (ConsumerRecord<String, String> record : records) {
      assertThat(record.headers().lastHeader(OnceHeaders.MESSAGE_ID)).isNotNull();
      assertThat(
              new String(
                  record.headers().lastHeader(OnceHeaders.TYPE).value(), StandardCharsets.UTF_8))
          .isEqualTo(topic);
    }
    return records.stream().map(ConsumerRecord::key).collect(Collectors.toSet());
  }
}
