package dev.once.shop.idempotency;

import static dev.once.test.OnceAssertions.assertThatEndpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.test.http.HttpTarget;
import dev.once.test.http.TestRequest;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every idempotent POST of the shop ({@code /v1}) under the once-test kit's endpoint assertion: the
 * first call executes, a retry replays its answer and takes no second effect, concurrent sends of
 * one key take one effect and no 5xx, the same key with another body is refused 422, a request
 * without a key is refused 400, a handler that fails leaves neither effect nor key behind, and an
 * answer lost after the commit is replayed to the retry (the fault hooks of {@code OnceTestFaults},
 * imported by {@link ShopIntegrationTest}).
 *
 * <p>Every endpoint with a body gets a valid other body for the 422 check (another currency,
 * amount, quantity or sku), one the shop would execute if Once let it: the kit's default other body
 * adds an unknown member, which the shop's own validation refuses with a 422 too, so it could not
 * tell Once's {@code idempotency-key-reused} from the shop's {@code validation-failed}.
 *
 * <p>Each probe reads something that only the endpoint under test moves during its assertion: the
 * balance, rows or stock of an account, client, payment or product made for that test (the relay is
 * off in tests, so nothing settles behind the probe's back). Pay and cancel can happen once per
 * order, and a sku can be created once, so those checks send a fresh order or sku each.
 *
 * <p>What the kit does not cover stays in {@link IdempotencyTest} and the API tests: keys scoped
 * per client, number spelling in the fingerprint, disabled clients, killed database sessions,
 * refusals stored without their writes, the problem types of the refusals.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EndpointIdempotencyTest extends ShopIntegrationTest {
  @LocalServerPort private int port;
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;
  @Autowired private PaymentService payments;

  private TestClient client;
  private OrderFixture shop;
  private HttpTarget target;

  /** The test's own account, with 1000.00 EUR. */
  private String account;

  /** The test's own product, 1.00 EUR, with 1000 units. */
  private String sku;

  @BeforeEach
  void aClientWithAnAccountAndAProduct() {
    client = newClient();
    shop = new OrderFixture(client, jdbc);
    target = HttpTarget.baseUrl("http://localhost:" + port);
    account = client.openAccountWith("EUR", "1000.00");
    sku = newSku();
    shop.product(sku, 1000);
  }

  private TestRequest post(String path, String json) {
    return TestRequest.post(path).bearer(client.apiKey()).json(json);
  }

  /** A POST without a body, as pay and cancel take it. */
  private TestRequest postEmpty(String path) {
    return TestRequest.post(path).bearer(client.apiKey());
  }

  private BigDecimal balance(String account) {
    return jdbc.sql("SELECT balance FROM account WHERE id = ?")
        .param(account)
        .query(BigDecimal.class)
        .single();
  }

  /**
   * The traces of the account's payments: payment rows, charges in the journal and provider.charge
   * messages in the outbox (found by payload, so orphans count too). One payment moves it by 3, so
   * a second charge, or a second call to the provider, shows even if the other two do not. (That
   * the balance matches the journal, {@link ShopIntegrationTest} checks after every test.)
   */
  private long paymentTraces(String account) {
    return jdbc.sql(
            """
            SELECT (SELECT count(*) FROM payment WHERE account_id = :a)
                 + (SELECT count(*) FROM operation WHERE account_id = :a AND kind = 'charge')
                 + (SELECT count(*) FROM once.outbox
                     WHERE type = 'provider.charge' AND payload->>'accountId' = :a)
            """)
        .param("a", account)
        .query(Long.class)
        .single();
  }

  private long count(String sql, String param) {
    return jdbc.sql(sql).param(param).query(Long.class).single();
  }

  private static String newSku() {
    return "KIT-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String payment(String account, String amount) {
    return "{\"accountId\":\"" + account + "\",\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}";
  }

  private TestRequest newProduct(String sku) {
    return post(
        "/v1/products",
        "{\"sku\":\""
            + sku
            + "\",\"name\":\"Kit product\",\"price\":\"1.99\",\"currency\":\"EUR\",\"stock\":5}");
  }

  @Test
  void openingAnAccount() {
    assertThatEndpoint(target)
        .withRequest(post("/v1/accounts", "{\"currency\":\"EUR\"}"))
        .withOtherBody(post("/v1/accounts", "{\"currency\":\"USD\"}"))
        .isIdempotent(() -> count("SELECT count(*) FROM account WHERE client_id = ?", client.id()));
  }

  @Test
  void aDeposit() {
    String deposits = "/v1/accounts/" + account + "/deposits";
    assertThatEndpoint(target)
        .withRequest(post(deposits, "{\"amount\":\"1.00\"}"))
        .withOtherBody(post(deposits, "{\"amount\":\"2.00\"}"))
        .isIdempotent(() -> balance(account));
  }

  /**
   * 64 concurrent sends, another amount as the other body, and the payment's three traces as the
   * probe: what IdempotencyTest's sixty-four-sends and another-amount tests proved by hand.
   */
  @Test
  void aPayment() {
    assertThatEndpoint(target)
        .withRequest(post("/v1/payments", payment(account, "10.00")))
        .withOtherBody(post("/v1/payments", payment(account, "6.00")))
        .concurrency(64)
        .isIdempotent(() -> paymentTraces(account));
  }

  /** Refunds move no money until the provider confirms them: the probe counts the refunds. */
  @Test
  void aRefund() {
    String payment = client.pay(account, "100.00", "EUR").text("id");
    payments.settle(payment, PaymentStatus.SUCCEEDED);

    String refunds = "/v1/payments/" + payment + "/refunds";
    assertThatEndpoint(target)
        .withRequest(post(refunds, "{\"amount\":\"1.00\"}"))
        .withOtherBody(post(refunds, "{\"amount\":\"2.00\"}"))
        .isIdempotent(() -> count("SELECT count(*) FROM refund WHERE payment_id = ?", payment));
  }

  @Test
  void placingAnOrder() {
    assertThatEndpoint(target)
        .withRequest(
            post("/v1/orders", OrderFixture.orderBody(account, OrderFixture.lines(sku, 1))))
        .withOtherBody(
            post("/v1/orders", OrderFixture.orderBody(account, OrderFixture.lines(sku, 2))))
        .isIdempotent(() -> count("SELECT count(*) FROM orders WHERE account_id = ?", account));
  }

  /**
   * An order is paid once: every check pays a fresh reserved order. Pay takes no body, so the 422
   * check sends the kit's default, a JSON body where there was none.
   */
  @Test
  void payingAnOrder() {
    EventDelivery events = new EventDelivery(jdbc, inbox, consumers);

    assertThatEndpoint(target)
        .withRequests(
            () -> {
              String order = shop.place(account, OrderFixture.lines(sku, 1));
              events.pump(order);
              assertThat(shop.status(order)).isEqualTo("reserved");
              return postEmpty("/v1/orders/" + order + "/pay");
            })
        .isIdempotent(() -> paymentTraces(account));
  }

  /**
   * An order is cancelled once: every check cancels a fresh placed order. Cancel takes no body, so
   * the 422 check sends the kit's default, a JSON body where there was none.
   */
  @Test
  void cancellingAnOrder() {
    assertThatEndpoint(target)
        .withRequests(
            () ->
                postEmpty(
                    "/v1/orders/" + shop.place(account, OrderFixture.lines(sku, 1)) + "/cancel"))
        .isIdempotent(
            () ->
                count(
                    "SELECT count(*) FROM orders WHERE account_id = ? AND status = 'cancelled'",
                    account));
  }

  /** A sku is created once: every check creates a fresh one. */
  @Test
  void creatingAProduct() {
    assertThatEndpoint(target)
        .withRequests(() -> newProduct(newSku()))
        .withOtherBody(newProduct(newSku()))
        .isIdempotent(() -> count("SELECT count(*) FROM product WHERE client_id = ?", client.id()));
  }

  @Test
  void restockingAProduct() {
    assertThatEndpoint(target)
        .withRequest(post("/v1/products/" + sku + "/restock", "{\"quantity\":3}"))
        .withOtherBody(post("/v1/products/" + sku + "/restock", "{\"quantity\":4}"))
        .isIdempotent(() -> shop.stock(sku).available());
  }
}
