package dev.once.shop.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.Inbox;
import dev.once.inbox.InboxConsumer;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.support.EventDelivery;
import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The orders API end to end over HTTP: place, reserve (by pumping the order's events through the
 * inbox, as the relay would), pay, settle, cancel with refund and stock release, the state
 * machine's refusals, and other clients' orders and products. (Replays of the same Idempotency-Key
 * of place, pay and cancel: EndpointIdempotencyTest, with the once-test kit.)
 */
class OrderApiTest extends ShopIntegrationTest {
  @Autowired private Inbox inbox;
  @Autowired private List<InboxConsumer> consumers;
  @Autowired private PaymentService payments;

  private EventDelivery events;
  private TestClient client;
  private String account;

  @BeforeEach
  void productsAndAnAccount() {
    events = new EventDelivery(jdbc, inbox, consumers);
    client = newClient();
    account = client.openAccountWith("EUR", "100.00");
    product(client, "TEA-100", "4.20", "EUR", 10);
    product(client, "MUG.blue_1", "7.5", "EUR", 5);
  }

  @Test
  void createsAProduct() {
    ShopResponse created =
        client.post(
            "/v1/products",
            "{\"sku\":\"PEN-9\",\"name\":\"Pen, black\",\"price\":\"1.99\",\"currency\":\"EUR\","
                + "\"stock\":0}");

    created.assertStatus(201);
    assertThat(created.header("Location")).hasValue("/v1/products/PEN-9");
    assertThat(created.fieldNames())
        .containsExactly("sku", "name", "price", "currency", "stock", "reserved");
    assertThat(created.text("name")).isEqualTo("Pen, black");
    assertThat(created.text("price")).isEqualTo("1.9900");
    assertThat(created.json().get("stock").asLong()).isZero();
    assertThat(client.get("/v1/products/PEN-9").assertStatus(200).body()).isEqualTo(created.body());
  }

  @Test
  void placesAnOrderWithItemsSortedBySkuAtTheProductsPrices() {
    ShopResponse placed =
        place("{\"sku\":\"TEA-100\",\"quantity\":2},{\"sku\":\"MUG.blue_1\",\"quantity\":1}");

    placed.assertStatus(201);
    String id = placed.text("id");
    assertThat(id).startsWith("ord_").hasSize(26);
    assertThat(placed.header("Location")).hasValue("/v1/orders/" + id);
    assertThat(placed.fieldNames())
        .containsExactly(
            "id",
            "accountId",
            "status",
            "items",
            "total",
            "currency",
            "paymentId",
            "refundId",
            "createdAt",
            "reservedAt");
    assertThat(placed.text("accountId")).isEqualTo(account);
    assertThat(placed.text("status")).isEqualTo("placed");
    assertThat(placed.json().get("items").toString())
        .isEqualTo(
            "[{\"sku\":\"MUG.blue_1\",\"quantity\":1,\"price\":\"7.5000\"},"
                + "{\"sku\":\"TEA-100\",\"quantity\":2,\"price\":\"4.2000\"}]");
    assertThat(placed.text("total")).isEqualTo("15.9000");
    assertThat(placed.text("currency")).isEqualTo("EUR");
    assertThat(placed.text("paymentId")).isNull();
    assertThat(placed.text("refundId")).isNull();
    assertThat(placed.text("createdAt")).isNotBlank();
    assertThat(placed.text("reservedAt")).isNull();

    assertThat(client.get("/v1/orders/" + id).assertStatus(200).body()).isEqualTo(placed.body());
    // Nothing is reserved before the order's event is delivered; the event is in the outbox.
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
    assertThat(outboxTypes(id)).containsExactly("order.placed");
    // A later price does not change the order.
    JdbcClient.create(ownerDataSource())
        .sql("UPDATE product SET price = 99 WHERE client_id = :c AND sku = 'TEA-100'")
        .param("c", client.id())
        .update();
    assertThat(client.get("/v1/orders/" + id).text("total")).isEqualTo("15.9000");
  }

  @Test
  void theOrdersEventsReserveItsStock() {
    String id = placeTeaAndMug();

    assertThat(events.pump(id)).containsExactly("order.placed", "stock.reserved");

    ShopResponse order = client.get("/v1/orders/" + id).assertStatus(200);
    assertThat(order.text("status")).isEqualTo("reserved");
    assertThat(order.text("reservedAt")).isNotBlank();
    assertThat(order.text("paymentId")).isNull();
    assertStock("TEA-100", 8, 2);
    assertStock("MUG.blue_1", 4, 1);
    assertThat(reservationStates(id)).containsExactly("held", "held");
    assertThat(events.pump(id)).isEmpty();
    assertStock("TEA-100", 8, 2);
  }

  @Test
  void aReservedOrderIsPaidRefundedOnCancelAndItsStockComesBackOnce() {
    String id = reservedOrder();

    ShopResponse paid = action(id, "pay");

    paid.assertStatus(201);
    String payment = paid.text("id");
    assertThat(payment).startsWith("pay_");
    assertThat(paid.header("Location")).hasValue("/v1/payments/" + payment);
    assertThat(paid.fieldNames())
        .containsExactly(
            "id", "accountId", "amount", "currency", "status", "operationId", "refunded");
    assertThat(paid.text("accountId")).isEqualTo(account);
    assertThat(paid.text("amount")).isEqualTo("15.9000");
    assertThat(paid.text("currency")).isEqualTo("EUR");
    assertThat(paid.text("status")).isEqualTo("pending");
    assertThat(client.balance(account)).isEqualTo("84.1000");
    ShopResponse waiting = client.get("/v1/orders/" + id);
    assertThat(waiting.text("status")).isEqualTo("reserved");
    assertThat(waiting.text("paymentId")).isEqualTo(payment);

    settle(payment, PaymentStatus.SUCCEEDED);

    ShopResponse paidOrder = client.get("/v1/orders/" + id);
    assertThat(paidOrder.text("status")).isEqualTo("paid");
    assertThat(paidOrder.text("paymentId")).isEqualTo(payment);
    assertThat(paidOrder.text("refundId")).isNull();

    ShopResponse cancelled = action(id, "cancel");

    cancelled.assertStatus(200);
    assertThat(cancelled.text("id")).isEqualTo(id);
    assertThat(cancelled.text("status")).isEqualTo("cancelled");
    String refund = cancelled.text("refundId");
    assertThat(refund).startsWith("ref_");
    assertThat(cancelled.text("paymentId")).isEqualTo(payment);
    assertThat(client.get("/v1/orders/" + id).body()).isEqualTo(cancelled.body());
    ShopResponse paymentNow = client.get("/v1/payments/" + payment);
    assertThat(paymentNow.text("status")).isEqualTo("succeeded");
    assertThat(paymentNow.text("refunded")).isEqualTo("15.9000");
    JsonNode refunds = client.get("/v1/payments/" + payment + "/refunds").json().get("items");
    assertThat(refunds).hasSize(1);
    assertThat(refunds.get(0).get("id").stringValue()).isEqualTo(refund);
    assertThat(refunds.get(0).get("amount").stringValue()).isEqualTo("15.9000");
    // The refund credits the account when the provider confirms it.
    assertThat(client.balance(account)).isEqualTo("84.1000");
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("100.0000");

    // The stock comes back when order.cancelled is delivered, and only once.
    assertStock("TEA-100", 8, 2);
    assertThat(events.pump(id)).containsExactly("order.cancelled");
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
    assertThat(reservationStates(id)).containsExactly("released", "released");
    redeliverAll(id);
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
  }

  @Test
  void aPlacedOrderIsCancelledAndItsStockComesBackOnce() {
    String id = placeTeaAndMug();

    ShopResponse cancelled = action(id, "cancel");

    cancelled.assertStatus(200);
    assertThat(cancelled.text("status")).isEqualTo("cancelled");
    assertThat(cancelled.text("refundId")).isNull();
    assertThat(cancelled.text("paymentId")).isNull();
    // order.placed is delivered first and reserves; order.cancelled then releases, once.
    assertThat(events.pump(id))
        .containsExactly("order.placed", "order.cancelled", "stock.reserved");
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("cancelled");
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
    redeliverAll(id);
    assertStock("TEA-100", 10, 0);
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("cancelled");
  }

  @Test
  void aReservedOrderIsCancelledOnceAndItsStockComesBackOnce() {
    String id = reservedOrder();

    ShopResponse cancelled = action(id, "cancel");

    cancelled.assertStatus(200);
    assertThat(cancelled.text("status")).isEqualTo("cancelled");
    assertThat(cancelled.text("refundId")).isNull();
    assertThat(cancelled.text("reservedAt")).isNotBlank();
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertThat(events.pump(id)).containsExactly("order.cancelled");
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);

    RowCounts before = rowCounts();
    action(id, "cancel").assertProblem(422, "invalid-order-state");
    action(id, "pay").assertProblem(422, "invalid-order-state");
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(events.pump(id)).isEmpty();
    assertStock("TEA-100", 10, 0);
  }

  @Test
  void aDeclinedPaymentLeavesTheOrderReservedAndPayableAgain() {
    String id = reservedOrder();
    String first = action(id, "pay").assertStatus(201).text("id");

    settle(first, PaymentStatus.FAILED);

    ShopResponse order = client.get("/v1/orders/" + id);
    assertThat(order.text("status")).isEqualTo("reserved");
    assertThat(order.text("paymentId")).isNull();
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertStock("TEA-100", 8, 2);

    String second = action(id, "pay").assertStatus(201).text("id");
    assertThat(second).isNotEqualTo(first);
    assertThat(client.get("/v1/orders/" + id).text("paymentId")).isEqualTo(second);
    settle(second, PaymentStatus.SUCCEEDED);
    ShopResponse paid = client.get("/v1/orders/" + id);
    assertThat(paid.text("status")).isEqualTo("paid");
    assertThat(paid.text("paymentId")).isEqualTo(second);
    assertThat(client.balance(account)).isEqualTo("84.1000");
  }

  @Test
  void aPaymentOfAnOrderIsRefundedThroughItsOrderOnly() {
    String id = reservedOrder();
    String payment = action(id, "pay").assertStatus(201).text("id");
    // Pending, the order waiting for it: refused for its order, before its status is looked at.
    refund(payment, "5.90").assertProblem(422, "payment-belongs-to-order");
    settle(payment, PaymentStatus.SUCCEEDED);
    RowCounts before = rowCounts();

    ShopResponse refused = refund(payment, "5.90");

    refused.assertProblem(422, "payment-belongs-to-order");
    assertThat(refused.text("detail")).contains("paid").contains("cancel");
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("paid");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    assertThat(client.balance(account)).isEqualTo("84.1000");
    assertStock("TEA-100", 8, 2);
    // The order's cancellation refunds it in full and gives its stock back.
    String refund = action(id, "cancel").assertStatus(200).text("refundId");
    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertThat(events.pump(id)).containsExactly("order.cancelled");
    assertStock("TEA-100", 10, 0);
  }

  @Test
  void aCancelledOrdersPaymentCanBeRefundedDirectlyAfterTheProviderRefusedItsRefund() {
    String id = reservedOrder();
    String payment = paid(id);
    String refused = action(id, "cancel").assertStatus(200).text("refundId");
    payments.settleRefund(refused, PaymentStatus.FAILED);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("0.0000");
    assertThat(client.balance(account)).isEqualTo("84.1000");

    String again = refund(payment, "15.90").assertStatus(201).text("id");

    payments.settleRefund(again, PaymentStatus.SUCCEEDED);
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("cancelled");
    refund(payment, "0.01").assertProblem(422, "refund-exceeds-payment");
  }

  @Test
  void anOrderOfAProductPricedBeforeTheMinorUnitsRulePaysAndCancels() {
    // A price of 4 fraction digits in EUR, as the shop accepted before it checked minor units.
    jdbc.sql(
            "INSERT INTO product (client_id, sku, name, price, currency, initial_stock, available,"
                + " created_at, updated_at) VALUES (?, 'OLD-1', 'Old', 1.0001, 'EUR', 5, 5, now(),"
                + " now())")
        .param(client.id())
        .update();
    String id = place("{\"sku\":\"OLD-1\",\"quantity\":1}").assertStatus(201).text("id");
    events.pump(id);
    String payment = paid(id);
    assertThat(client.balance(account)).isEqualTo("98.9999");

    String refund = action(id, "cancel").assertStatus(200).text("refundId");

    payments.settleRefund(refund, PaymentStatus.SUCCEEDED);
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("1.0001");
    assertThat(client.balance(account)).isEqualTo("100.0000");
  }

  @Test
  void cancellingAPaidOrderRefundsOnlyWhatIsNotRefundedYet() {
    String id = reservedOrder();
    String payment = paid(id);
    // A part refunded before refunds of an order's payment went through the order only.
    payments.refundThroughOrder(client.id(), payment, new BigDecimal("5.90"));

    ShopResponse cancelled = action(id, "cancel").assertStatus(200);

    String refund = cancelled.text("refundId");
    JsonNode refunds = client.get("/v1/payments/" + payment + "/refunds").json().get("items");
    assertThat(refunds).hasSize(2);
    assertThat(refunds.get(1).get("id").stringValue()).isEqualTo(refund);
    assertThat(refunds.get(1).get("amount").stringValue()).isEqualTo("10.0000");
    assertThat(client.get("/v1/payments/" + payment).text("refunded")).isEqualTo("15.9000");
    for (JsonNode each : refunds) {
      payments.settleRefund(each.get("id").stringValue(), PaymentStatus.SUCCEEDED);
    }
    assertThat(client.balance(account)).isEqualTo("100.0000");
  }

  @Test
  void cancellingAPaidOrderRefundedInFullBeforeMakesNoRefund() {
    String id = reservedOrder();
    String payment = paid(id);
    payments.refundThroughOrder(client.id(), payment, new BigDecimal("15.90"));
    long refundsBefore = rowCounts().refunds();

    ShopResponse cancelled = action(id, "cancel").assertStatus(200);

    assertThat(cancelled.text("status")).isEqualTo("cancelled");
    assertThat(cancelled.text("refundId")).isNull();
    assertThat(rowCounts().refunds()).isEqualTo(refundsBefore);
    assertThat(events.pump(id)).containsExactly("order.cancelled");
    assertStock("TEA-100", 10, 0);
  }

  @Test
  void anOrderWhosePaymentWasDeclinedCanBeCancelled() {
    String id = reservedOrder();
    settle(action(id, "pay").assertStatus(201).text("id"), PaymentStatus.FAILED);

    ShopResponse cancelled = action(id, "cancel").assertStatus(200);

    assertThat(cancelled.text("status")).isEqualTo("cancelled");
    assertThat(cancelled.text("paymentId")).isNull();
    assertThat(cancelled.text("refundId")).isNull();
    assertThat(client.balance(account)).isEqualTo("100.0000");
    assertThat(events.pump(id)).containsExactly("order.cancelled");
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
  }

  @Test
  void aRepeatedPaymentEventChangesNothing() {
    String id = reservedOrder();
    String payment = paid(id);
    ShopResponse paid = client.get("/v1/orders/" + id);

    redeliverAll(payment);

    assertThat(client.get("/v1/orders/" + id).body()).isEqualTo(paid.body());
    assertThat(paid.text("status")).isEqualTo("paid");
  }

  @Test
  void aPlacedOrderCannotBePaid() {
    String id = placeTeaAndMug();
    RowCounts before = rowCounts();

    ShopResponse refused = action(id, "pay");

    refused.assertProblem(422, "invalid-order-state");
    assertThat(refused.text("detail")).contains(id).contains("placed");
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.balance(account)).isEqualTo("100.0000");
  }

  @Test
  void aPendingPaymentBlocksPayingAgainAndCancelling() {
    String id = reservedOrder();
    String payment = action(id, "pay").assertStatus(201).text("id");
    RowCounts before = rowCounts();

    action(id, "pay").assertProblem(422, "invalid-order-state");
    ShopResponse cancel = action(id, "cancel");
    cancel.assertProblem(422, "invalid-order-state");
    assertThat(cancel.text("detail")).contains(payment);

    assertThat(rowCounts()).isEqualTo(before);
    ShopResponse order = client.get("/v1/orders/" + id);
    assertThat(order.text("status")).isEqualTo("reserved");
    assertThat(order.text("paymentId")).isEqualTo(payment);
    assertThat(client.balance(account)).isEqualTo("84.1000");
  }

  @Test
  void aPaidOrderCannotBePaidAgain() {
    String id = reservedOrder();
    String payment = paid(id);
    RowCounts before = rowCounts();

    ShopResponse refused = action(id, "pay");

    refused.assertProblem(422, "invalid-order-state");
    assertThat(refused.text("detail")).contains("paid");
    assertThat(rowCounts()).isEqualTo(before);
    assertThat(client.balance(account)).isEqualTo("84.1000");
  }

  @Test
  void anOrderAskingMoreThanIsAvailableIsRejectedAndTakesNothing() {
    String id =
        place("{\"sku\":\"TEA-100\",\"quantity\":3},{\"sku\":\"MUG.blue_1\",\"quantity\":6}")
            .assertStatus(201)
            .text("id");

    assertThat(events.pump(id)).containsExactly("order.placed", "stock.rejected");

    ShopResponse order = client.get("/v1/orders/" + id);
    assertThat(order.text("status")).isEqualTo("rejected");
    assertThat(order.text("reservedAt")).isNull();
    assertStock("TEA-100", 10, 0);
    assertStock("MUG.blue_1", 5, 0);
    assertThat(reservationStates(id)).containsExactly("rejected", "rejected");

    RowCounts before = rowCounts();
    action(id, "cancel").assertProblem(422, "invalid-order-state");
    action(id, "pay").assertProblem(422, "invalid-order-state");
    assertThat(rowCounts()).isEqualTo(before);

    // A restock shows at once; the rejected order stays rejected.
    ShopResponse restocked = client.post("/v1/products/MUG.blue_1/restock", "{\"quantity\":5}");
    restocked.assertStatus(200);
    assertThat(restocked.json().get("stock").asLong()).isEqualTo(10);
    assertThat(restocked.json().get("reserved").asLong()).isZero();
    assertStock("MUG.blue_1", 10, 0);
    redeliverAll(id);
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("rejected");
    assertStock("MUG.blue_1", 10, 0);
    assertStock("TEA-100", 10, 0);
  }

  @Test
  void insufficientFundsLeaveTheOrderUnpaid() {
    TestClient poor = newClient();
    String poorAccount = poor.openAccountWith("EUR", "10.00");
    product(poor, "TEA-100", "4.20", "EUR", 10);
    String id =
        poor.post(
                "/v1/orders",
                "{\"accountId\":\""
                    + poorAccount
                    + "\",\"items\":[{\"sku\":\"TEA-100\",\"quantity\":3}]}")
            .assertStatus(201)
            .text("id");
    events.pump(id);
    RowCounts before = rowCounts();

    poor.http()
        .send(actionRequest(poor, id, "pay", ShopHttp.newKey()))
        .assertProblem(422, "insufficient-funds");

    assertThat(rowCounts()).isEqualTo(before);
    ShopResponse order = poor.get("/v1/orders/" + id);
    assertThat(order.text("status")).isEqualTo("reserved");
    assertThat(order.text("paymentId")).isNull();
    assertThat(poor.balance(poorAccount)).isEqualTo("10.0000");
    assertThat(
            jdbc.sql("SELECT payment_id FROM orders WHERE id = :id")
                .param("id", id)
                .query()
                .singleRow())
        .containsEntry("payment_id", null);
    assertThat(
            jdbc.sql("SELECT count(*) FROM payment WHERE account_id = :a")
                .param("a", poorAccount)
                .query(Long.class)
                .single())
        .isZero();
  }

  @Test
  void anotherClientsOrdersAndProductsAreNotFound() {
    TestClient other = newClient();
    String theirAccount = other.openAccountWith("EUR", "100");
    product(other, "THEIRS-1", "1", "EUR", 4);
    String theirs =
        other
            .post(
                "/v1/orders",
                "{\"accountId\":\""
                    + theirAccount
                    + "\",\"items\":[{\"sku\":\"THEIRS-1\",\"quantity\":1}]}")
            .assertStatus(201)
            .text("id");
    events.pump(theirs);
    RowCounts before = rowCounts();

    client.get("/v1/orders/" + theirs).assertProblem(404, "order-not-found");
    action(theirs, "pay").assertProblem(404, "order-not-found");
    action(theirs, "cancel").assertProblem(404, "order-not-found");
    client.get("/v1/products/THEIRS-1").assertProblem(404, "product-not-found");
    client
        .post("/v1/products/THEIRS-1/restock", "{\"quantity\":1}")
        .assertProblem(404, "product-not-found");
    client
        .post(
            "/v1/orders",
            "{\"accountId\":\"" + account + "\",\"items\":[{\"sku\":\"THEIRS-1\",\"quantity\":1}]}")
        .assertProblem(422, "unknown-product");

    assertThat(rowCounts()).isEqualTo(before);
    ShopResponse untouched = other.get("/v1/orders/" + theirs);
    assertThat(untouched.text("status")).isEqualTo("reserved");
    assertThat(untouched.text("paymentId")).isNull();
    ShopResponse theirProduct = other.get("/v1/products/THEIRS-1").assertStatus(200);
    assertThat(theirProduct.json().get("stock").asLong()).isEqualTo(3);
    assertThat(theirProduct.json().get("reserved").asLong()).isEqualTo(1);
  }

  @Test
  void twoClientsMayUseTheSameSku() {
    TestClient other = newClient();
    product(other, "TEA-100", "9.99", "EUR", 1);

    assertThat(client.get("/v1/products/TEA-100").text("price")).isEqualTo("4.2000");
    assertThat(other.get("/v1/products/TEA-100").text("price")).isEqualTo("9.9900");
  }

  // --- helpers ---

  private void product(TestClient owner, String sku, String price, String currency, long stock) {
    new OrderFixture(owner, jdbc).product(sku, price, currency, stock);
  }

  private String orderBody(String items) {
    return "{\"accountId\":\"" + account + "\",\"items\":[" + items + "]}";
  }

  private ShopResponse place(String items) {
    return client.post("/v1/orders", orderBody(items));
  }

  /** An order of 2 TEA-100 at 4.20 and 1 MUG.blue_1 at 7.50: 15.90 EUR. */
  private String placeTeaAndMug() {
    return place("{\"sku\":\"TEA-100\",\"quantity\":2},{\"sku\":\"MUG.blue_1\",\"quantity\":1}")
        .assertStatus(201)
        .text("id");
  }

  private String reservedOrder() {
    String id = placeTeaAndMug();
    events.pump(id);
    assertThat(client.get("/v1/orders/" + id).text("status")).isEqualTo("reserved");
    return id;
  }

  /** POST /v1/orders/{id}/{action}, without a body, with a fresh key. */
  private ShopResponse action(String id, String action) {
    return action(id, action, ShopHttp.newKey());
  }

  private ShopResponse action(String id, String action, String key) {
    return http.send(actionRequest(client, id, action, key));
  }

  private static HttpRequest.Builder actionRequest(
      TestClient who, String id, String action, String key) {
    return who.http()
        .request("/v1/orders/" + id + "/" + action)
        .header("Authorization", "Bearer " + who.apiKey())
        .header("Idempotency-Key", key)
        .POST(HttpRequest.BodyPublishers.noBody());
  }

  /** The provider's answer, as the shop records it, then its event delivered to the order. */
  /** Pays the reserved order and records the provider's success; returns the payment id. */
  private String paid(String id) {
    String payment = action(id, "pay").assertStatus(201).text("id");
    settle(payment, PaymentStatus.SUCCEEDED);
    return payment;
  }

  private ShopResponse refund(String payment, String amount) {
    return client.post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"" + amount + "\"}");
  }

  private void settle(String payment, PaymentStatus outcome) {
    payments.settle(payment, outcome);
    assertThat(events.pump(payment))
        .containsExactly(
            outcome == PaymentStatus.SUCCEEDED ? "payment.succeeded" : "payment.failed");
  }

  /**
   * Delivers every event of the aggregate once more under new message ids, so that the inbox cannot
   * tell them from new ones: only the stock's own keys keep them from acting twice.
   */
  private void redeliverAll(String id) {
    jdbc.sql(
            "UPDATE once.outbox SET state = 'pending', message_id = gen_random_uuid()"
                + " WHERE aggregate_id = :id")
        .param("id", id)
        .update();
    events.pump(id);
  }

  private void assertStock(String sku, long available, long reserved) {
    ShopResponse product = client.get("/v1/products/" + sku).assertStatus(200);
    assertThat(product.json().get("stock").asLong()).as("%s available", sku).isEqualTo(available);
    assertThat(product.json().get("reserved").asLong()).as("%s reserved", sku).isEqualTo(reserved);
  }

  private List<String> outboxTypes(String aggregate) {
    return jdbc.sql("SELECT type FROM once.outbox WHERE aggregate_id = :id ORDER BY id")
        .param("id", aggregate)
        .query(String.class)
        .list();
  }

  private List<String> reservationStates(String order) {
    return jdbc.sql("SELECT state FROM reservation WHERE order_id = :id ORDER BY sku")
        .param("id", order)
        .query(String.class)
        .list();
  }
}
