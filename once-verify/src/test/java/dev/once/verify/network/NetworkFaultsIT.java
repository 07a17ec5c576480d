package dev.once.verify.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ChildProcess;
import dev.once.verify.harness.ShopApi;
import dev.once.verify.harness.ShopLogin;
import dev.once.verify.harness.ShopProcess;
import dev.once.verify.kafka.KafkaCommand;
import dev.once.verify.kafka.KafkaOptions;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real shop, its events through a Kafka broker, reaching PostgreSQL and the broker through
 * {@link FaultProxy}s, one shop for both tests (each heals what it breaks):
 *
 * <ul>
 *   <li>its PostgreSQL stops answering (a blackhole: accepted, never answered, never reset): a
 *       payment is answered 503 with {@code Retry-After} within the bound the shop is given (its
 *       socket time-out, and Once's lease plus 5 s for the key's transaction), not left waiting;
 *       once the network heals, the same request with the same key is 201, and the account is
 *       charged once;
 *   <li>it is cut off from the broker: what needs no broker goes on (orders are accepted, their
 *       events wait in the outbox; payments are charged and settled by the relay), and once healed
 *       the Kafka clients resume by themselves and every order placed meanwhile is reserved.
 * </ul>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NetworkFaultsIT {
  private static final Path SHOP = Path.of("../shop/target/shop.jar");

  /** The client waits this long for an answer; the shop's bounds are well inside it. */
  private static final Duration CLIENT_WAIT = Duration.ofSeconds(60);

  private final HttpClient http = HttpClient.newHttpClient();
  private final String admin = ShopProcess.newAdminToken();
  private BenchDatabase db;
  private ShopLogin direct;
  private FaultProxy pg;
  private FaultProxy broker;
  private KafkaCommand.Broker kafka;
  private ShopProcess shop;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    assertThat(Files.isRegularFile(SHOP)).as(SHOP + " (package the shop first)").isTrue();
    db = BenchDatabase.start();
    direct = db.login(BenchDatabase.DATABASE);
    URI uri = URI.create(direct.jdbcUrl().substring("jdbc:".length()));
    pg = FaultProxy.start("shop->postgres", new InetSocketAddress(uri.getHost(), uri.getPort()));
    // The broker's listener for the shop is advertised at the shop's proxy, so that every
    // connection of the shop's Kafka clients goes through it.
    int[] ports = ShopProcess.freePorts(3);
    broker = FaultProxy.start("shop->broker", new InetSocketAddress("127.0.0.1", ports[2]));
    kafka =
        new KafkaCommand(
                KafkaOptions.parse(
                    new String[] {
                      "--data", dir.resolve("kafka").toString(),
                      "--port", Integer.toString(ports[0]),
                      "--controller-port", Integer.toString(ports[1]),
                      "--routed-listener", ports[2] + ":" + broker.port()
                    }),
                new PrintStream(OutputStream.nullOutputStream()))
            .start();
    ShopLogin viaProxy =
        new ShopLogin(
            "jdbc:postgresql://localhost:" + pg.port() + uri.getPath(),
            direct.appUser(),
            direct.appPassword(),
            direct.ownerUser(),
            direct.ownerPassword());
    shop =
        ShopProcess.start(
            SHOP,
            viaProxy,
            true,
            ShopProcess.freePort(),
            admin,
            dir.resolve("shop.log"),
            // Hikari lends a connection without a check when it was used in the last 500 ms; here
            // never with one, so the stall meets the request's own statements, where only the
            // bounds under test can end the wait (a check would fail first).
            // C1 alone, as chaos runs its shops: it starts in about half the CPU time.
            List.of("-Dcom.zaxxer.hikari.aliveBypassWindowMs=3600000", ChildProcess.QUICK_START),
            List.of("--once.idempotency.lease=2s"),
            Map.of("SHOP_KAFKA_BOOTSTRAP", "127.0.0.1:" + broker.port()));
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {shop, kafka, broker, pg, db}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  void aPaymentWhoseDatabaseStallsIs503WithinTheBoundAndItsRetryAfterHealingIs201Once()
      throws Exception {
    String[] customer = customer("stall");
    String apiKey = customer[0];
    String account = customer[1];
    HttpRequest pay =
        post(apiKey, "/v1/payments", "stalled-payment", payment(account, "12.50")).build();

    pg.blackhole();
    HttpResponse<String> stalled = http.send(pay, HttpResponse.BodyHandlers.ofString());
    assertThat(stalled.statusCode()).as(stalled.body()).isEqualTo(503);
    assertThat(stalled.headers().firstValue("Retry-After")).isPresent();
    assertThat(stalled.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));

    pg.heal();
    // The pool may still lend a connection that broke during the stall: such a request is another
    // 503 (nothing committed), and the client retries with the same key, at the pace of
    // Retry-After (1 s), as a client of the shop does.
    HttpResponse<String> retried = untilNot503(pay);
    assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
    HttpResponse<String> again = http.send(pay, HttpResponse.BodyHandlers.ofString());
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    // The relay's connections went through the same blackhole; healed, it resumes by itself and
    // settles the payment with the provider.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> paymentStatus(account), status -> !"pending".equals(status));
    assertThat(paymentStatus(account)).isEqualTo("succeeded");
    assertThat(one("SELECT count(*) FROM payment WHERE account_id = ?", account))
        .as("payments of the account")
        .isEqualTo("1");
    assertThat(new BigDecimal(one("SELECT sum(amount) FROM payment WHERE account_id = ?", account)))
        .isEqualByComparingTo("12.50");
  }

  @Test
  void aShopCutOffFromTheBrokerServesWhatNeedsNoBrokerAndCatchesUpOnceHealed() throws Exception {
    String[] customer = customer("partition");
    String apiKey = customer[0];
    String account = customer[1];
    try (ShopApi api = new ShopApi(shop.port())) {
      api.createProduct(apiKey, "NET-1", "1.00", "EUR", 1_000);
    }
    String before = placeOrder(apiKey, account, "before");
    await().atMost(Duration.ofSeconds(90)).until(() -> orderStatus(before), "reserved"::equals);

    broker.blackhole();
    List<String> during = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      during.add(placeOrder(apiKey, account, "during-" + i));
    }
    HttpResponse<String> paid =
        untilNot503(
            post(apiKey, "/v1/payments", "partition-pay", payment(account, "3.25")).build());
    assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
    // The relay settles the payment with the provider while the broker is still cut off: the
    // outbox's in-process work goes on.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> paymentStatus(account), status -> !"pending".equals(status));
    assertThat(paymentStatus(account)).isEqualTo("succeeded");
    for (String order : during) {
      assertThat(orderStatus(order)).as("reserved only through the broker").isEqualTo("placed");
    }
    assertThat(
            one(
                "SELECT count(*) FROM once.outbox WHERE type = 'order.placed' AND state = 'pending'"))
        .as("their events wait in the outbox")
        .isNotEqualTo("0");

    broker.heal();
    for (String order : during) {
      await().atMost(Duration.ofSeconds(90)).until(() -> orderStatus(order), "reserved"::equals);
    }
  }

  /** A new API client with an account holding 100.00 EUR: its API key and the account's id. */
  private String[] customer(String name) throws Exception {
    try (ShopApi api = new ShopApi(shop.port())) {
      String apiKey = api.createClient(admin, name);
      String account = api.createAccount(apiKey);
      api.deposit(apiKey, account, "100.00");
      return new String[] {apiKey, account};
    }
  }

  /** Places an order of one unit of NET-1 (retrying a 503 as a client would); its id. */
  private String placeOrder(String apiKey, String account, String key) throws Exception {
    String body =
        "{\"accountId\":\"" + account + "\",\"items\":[{\"sku\":\"NET-1\",\"quantity\":1}]}";
    HttpResponse<String> r = untilNot503(post(apiKey, "/v1/orders", "order-" + key, body).build());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return field(r.body(), "id");
  }

  private HttpRequest.Builder post(String apiKey, String path, String key, String body) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + shop.port() + path))
        .timeout(CLIENT_WAIT)
        .header("Authorization", "Bearer " + apiKey)
        .header("Idempotency-Key", key)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  private static String payment(String account, String amount) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}";
  }

  /** Sends {@code request} again, at the pace of {@code Retry-After} (1 s), while it is 503. */
  private HttpResponse<String> untilNot503(HttpRequest request) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> http.send(request, HttpResponse.BodyHandlers.ofString()),
            answer -> answer.statusCode() != 503);
  }

  private String orderStatus(String order) throws Exception {
    return one("SELECT status FROM orders WHERE id = ?", order);
  }

  /** The status of the account's latest payment, read directly from the database. */
  private String paymentStatus(String account) throws Exception {
    return one(
        "SELECT status FROM payment WHERE account_id = ? ORDER BY created_at DESC LIMIT 1",
        account);
  }

  /** The first column of the one row of {@code sql}, as text, read as the schema owner. */
  private String one(String sql, String... params) throws Exception {
    try (Connection c = direct.ownerDataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setString(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private static String field(String json, String name) {
    int at = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
    return json.substring(at, json.indexOf('"', at));
  }
}
