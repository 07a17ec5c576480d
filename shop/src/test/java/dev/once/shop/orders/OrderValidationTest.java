package dev.once.shop.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.OrderFixture;
import dev.once.shop.support.Refusals;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input on the orders API: each gets its problem (naming the field where the shop does), no
 * internals, and nothing is written (no order, item, reservation, event, payment or stock change)
 * but the refusal Once keeps for a replay.
 */
class OrderValidationTest extends ShopIntegrationTest {
  private static final String TEA = "{\"sku\":\"TEA-1\",\"quantity\":1}";

  private TestClient client;
  private String account;
  private String order;
  private Refusals refusals;
  private RowCounts before;

  @BeforeEach
  void productsAccountAndAnOrder() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    product("TEA-1", "4.20", "EUR", 7);
    product("MUG-1", "7.50", "EUR", 3);
    product("USD-1", "1", "USD", 3);
    product("HUGE-1", "9999999999999999.99", "EUR", 0);
    order = client.post("/v1/orders", order(TEA)).assertStatus(201).text("id");
    refusals = new Refusals(jdbc, client);
    before = rowCounts();
  }

  @AfterEach
  void nothingWasWritten() {
    if (before != null) {
      assertThat(rowCounts()).isEqualTo(before);
      refusals.assertOnlyRefusalsStored();
      ShopResponse unchanged = client.get("/v1/orders/" + order).assertStatus(200);
      assertThat(unchanged.text("status")).isEqualTo("placed");
      assertThat(unchanged.text("paymentId")).isNull();
    }
  }

  private String order(String items) {
    return "{\"accountId\":\"" + account + "\",\"items\":[" + items + "]}";
  }

  private static String item(String sku, String quantity) {
    return "{\"sku\":" + sku + ",\"quantity\":" + quantity + "}";
  }

  static Stream<Arguments> badItems() {
    return Stream.of(
        // products the client does not have
        Arguments.of(item("\"NOPE-1\"", "1"), "unknown-product", "items[0].sku"),
        Arguments.of(TEA + "," + item("\"NOPE-1\"", "1"), "unknown-product", "items[1].sku"),
        Arguments.of(item("\"tea-1\"", "1"), "unknown-product", "items[0].sku"),
        // quantity: a JSON integer 1..1,000,000
        Arguments.of(item("\"TEA-1\"", "0"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "-1"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "1000001"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "\"2\""), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "1.5"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "2.0"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "2e0"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "true"), "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "1e400"), "validation-failed", "items[0].quantity"),
        Arguments.of(
            item("\"TEA-1\"", "123456789012345678901234567890"),
            "validation-failed",
            "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "null"), "validation-failed", "items[0].quantity"),
        Arguments.of("{\"sku\":\"TEA-1\"}", "validation-failed", "items[0].quantity"),
        Arguments.of(item("\"TEA-1\"", "[1]"), "validation-failed", "items[0].quantity"),
        Arguments.of(TEA + "," + item("\"MUG-1\"", "0"), "validation-failed", "items[1].quantity"),
        // sku: the shape of a product code
        Arguments.of(item("\"TEA 1\"", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("\"" + "S".repeat(65) + "\"", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("\"TÉA-1\"", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("\"\"", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("\"T\\u0000\"", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("null", "1"), "validation-failed", "items[0].sku"),
        Arguments.of(item("7", "1"), "validation-failed", "items[0].sku"),
        Arguments.of("{\"quantity\":1}", "validation-failed", "items[0].sku"),
        // the list and its members
        Arguments.of(TEA + ",null", "validation-failed", "items[1]"),
        Arguments.of("\"TEA-1\"", "validation-failed", "items[0]"),
        Arguments.of(
            "{\"sku\":\"TEA-1\",\"quantity\":1,\"colour\":\"red\"}",
            "validation-failed",
            "items[0].colour"),
        Arguments.of(TEA + "," + TEA, "validation-failed", "items[1].sku"),
        Arguments.of(
            TEA + "," + item("\"MUG-1\"", "1") + "," + item("\"TEA-1\"", "2"),
            "validation-failed",
            "items[2].sku"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badItems")
  void refusesBadItems(String items, String slug, String field) {
    ShopResponse answer = refusals.post("/v1/orders", order(items));

    answer.assertProblem(422, slug);
    assertThat(answer.text("field")).isEqualTo(field);
  }

  static Stream<Arguments> badDocuments() {
    String hundredAndOne =
        IntStream.range(0, 101)
            .mapToObj(i -> item("\"S-" + i + "\"", "1"))
            .collect(Collectors.joining(","));
    return Stream.of(
        Arguments.of("{\"accountId\":\"ACC\"}", 422, "validation-failed", "items"),
        Arguments.of("{\"accountId\":\"ACC\",\"items\":null}", 422, "validation-failed", "items"),
        Arguments.of("{\"accountId\":\"ACC\",\"items\":[]}", 422, "validation-failed", "items"),
        Arguments.of("{\"accountId\":\"ACC\",\"items\":{}}", 422, "validation-failed", "items"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"items\":\"TEA-1\"}", 422, "validation-failed", "items"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"items\":[" + hundredAndOne + "]}",
            422,
            "validation-failed",
            "items"),
        Arguments.of("{\"items\":[" + TEA + "]}", 422, "validation-failed", "accountId"),
        Arguments.of(
            "{\"accountId\":null,\"items\":[" + TEA + "]}", 422, "validation-failed", "accountId"),
        Arguments.of(
            "{\"accountId\":\"\",\"items\":[" + TEA + "]}", 422, "validation-failed", "accountId"),
        Arguments.of(
            "{\"accountId\":\" \",\"items\":[" + TEA + "]}", 422, "validation-failed", "accountId"),
        Arguments.of(
            "{\"accountId\":42,\"items\":[" + TEA + "]}", 422, "validation-failed", "accountId"),
        Arguments.of(
            "{\"accountId\":\"" + "a".repeat(101) + "\",\"items\":[" + TEA + "]}",
            422,
            "validation-failed",
            "accountId"),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"items\":[" + TEA + "],\"note\":\"x\"}",
            422,
            "validation-failed",
            "note"),
        Arguments.of("{}", 422, "validation-failed", "accountId"),
        Arguments.of("[]", 422, "validation-failed", null),
        Arguments.of("{\"accountId\":\"ACC\",", 400, "malformed-json", null),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"items\":[" + TEA + "]}]", 400, "malformed-json", null),
        Arguments.of(
            "{\"accountId\":\"ACC\",\"accountId\":\"ACC\",\"items\":[" + TEA + "]}",
            400,
            "malformed-json",
            null),
        Arguments.of("", 400, "malformed-json", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badDocuments")
  void refusesBadDocuments(String body, int status, String slug, String field) {
    ShopResponse answer = refusals.post("/v1/orders", body.replace("ACC", account));

    answer.assertProblem(status, slug);
    if (field != null) {
      assertThat(answer.text("field")).isEqualTo(field);
    }
  }

  @Test
  void refusesAccountsOtherThanTheClientsOwn() {
    String theirs = newClient().openAccountWith("EUR", "100");
    before = rowCounts();
    refusals = new Refusals(jdbc, client);
    for (String id :
        new String[] {theirs, "acc_AAAAAAAAAAAAAAAAAAAAAA", "acc_short", "nope", order}) {
      ShopResponse answer =
          refusals.post("/v1/orders", "{\"accountId\":\"" + id + "\",\"items\":[" + TEA + "]}");
      answer.assertProblem(404, "account-not-found");
    }
  }

  @Test
  void refusesAnAccountInAnotherCurrencyThanTheProducts() {
    String dollars = client.openAccountWith("USD", "100");
    before = rowCounts();
    refusals = new Refusals(jdbc, client);

    ShopResponse answer =
        refusals.post("/v1/orders", "{\"accountId\":\"" + dollars + "\",\"items\":[" + TEA + "]}");

    answer.assertProblem(422, "currency-mismatch");
    assertThat(answer.text("detail")).contains("USD").contains("EUR");
    refusals
        .post("/v1/orders", order(item("\"USD-1\"", "1")))
        .assertProblem(422, "currency-mismatch");
  }

  @Test
  void refusesProductsOfTwoCurrenciesInOneOrder() {
    ShopResponse answer = refusals.post("/v1/orders", order(TEA + "," + item("\"USD-1\"", "1")));

    answer.assertProblem(422, "currency-mismatch");
    assertThat(answer.text("field")).isEqualTo("items[1].sku");
  }

  @Test
  void refusesATotalOfMoreThanSixteenIntegerDigits() {
    ShopResponse answer = refusals.post("/v1/orders", order(item("\"HUGE-1\"", "2")));
    answer.assertProblem(422, "amount-out-of-range");
    assertThat(answer.text("field")).isEqualTo("items");

    refusals
        .post("/v1/orders", order(item("\"HUGE-1\"", "1") + "," + item("\"TEA-1\"", "1")))
        .assertProblem(422, "amount-out-of-range");
    refusals
        .post("/v1/orders", order(item("\"HUGE-1\"", "1000000")))
        .assertProblem(422, "amount-out-of-range");
  }

  @Test
  void acceptsTheBoundaries() {
    // Kept out of the "nothing written" check: each of these is stored.
    before = null;
    ShopResponse largest = client.post("/v1/orders", order(item("\"HUGE-1\"", "1")));
    largest.assertStatus(201);
    assertThat(largest.text("total")).isEqualTo("9999999999999999.9900");
    String hundred =
        IntStream.range(0, 100)
            .mapToObj(
                i -> {
                  String sku = "P-" + i;
                  product(sku, "0.01", "EUR", 0);
                  return item("\"" + sku + "\"", i == 0 ? "1000000" : "1");
                })
            .collect(Collectors.joining(","));
    ShopResponse many = client.post("/v1/orders", order(hundred));
    many.assertStatus(201);
    assertThat(many.json().get("items")).hasSize(100);
    assertThat(many.text("total")).isEqualTo("10000.9900");
  }

  @Test
  void refusesWrongContentTypes() {
    refusals
        .post("/v1/orders", "text/plain", order(TEA))
        .assertProblem(415, "unsupported-media-type");
    refusals
        .post("/v1/orders", "application/x-www-form-urlencoded", "accountId=x")
        .assertProblem(415, "unsupported-media-type");
    refusals.postEmpty("/v1/orders").assertProblem(415, "unsupported-media-type");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ord_AAAAAAAAAAAAAAAAAAAAAA",
        "ord_AAAAAAAAAAAAAAAAAAAAA",
        "ord_AAAAAAAAAAAAAAAAAAAAAAA",
        "ORD_AAAAAAAAAAAAAAAAAAAAAA",
        "acc_AAAAAAAAAAAAAAAAAAAAAA",
        "ord_AAAAAAAAAAAAAAAAAAAA%C3%A9",
        "ord_AAAAAAAAAAAAAAAAAAAAA%20",
        "ord_AAAAAAAAAAAAAAAAAAAAA.",
        "nope",
        "%20"
      })
  void unknownAndMalformedOrderIdsAreNotFound(String id) {
    assertOrderNotFound(id);
  }

  @Test
  void aThousandCharacterOrderIdIsNotFound() {
    assertOrderNotFound("ord_" + "A".repeat(996));
  }

  @Test
  void anotherAccountOrPaymentIdIsNotAnOrder() {
    assertOrderNotFound(account);
    assertOrderNotFound(order.replace("ord_", "pay_"));
  }

  @Test
  void anotherClientsOrderIsNotFound() {
    TestClient other = newClient();
    before = rowCounts();
    Refusals theirs = new Refusals(jdbc, other);
    refusals = theirs;
    for (String path : new String[] {"/pay", "/cancel"}) {
      theirs.postEmpty("/v1/orders/" + order + path).assertProblem(404, "order-not-found");
    }
    other.get("/v1/orders/" + order).assertProblem(404, "order-not-found");
  }

  @Test
  void aRefusalIsStoredAndReplayedUnderItsKey() {
    String key = ShopHttp.newKey();
    String body = order(item("\"NOPE-1\"", "1"));
    ShopResponse first = client.http().post("/v1/orders", client.apiKey(), key, body);
    first.assertProblem(422, "unknown-product");

    // The product now exists, yet the same key answers what it answered.
    before = null;
    product("NOPE-1", "1", "EUR", 1);
    ShopResponse again = client.http().post("/v1/orders", client.apiKey(), key, body);

    assertThat(again.header("Idempotent-Replayed")).hasValue("true");
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.status()).isEqualTo(422);
    client.post("/v1/orders", body).assertStatus(201);
  }

  /**
   * Of several faults the first in the record's order is answered, wherever it is in the document:
   * a missing account before a bad item, and the first bad item before a later one.
   */
  @Test
  void namesTheFirstFaultInTheRecordsOrder() {
    String manyBad =
        IntStream.range(0, 12)
            .mapToObj(i -> item("\"B-" + i + "\"", "0"))
            .collect(Collectors.joining(","));
    assertThat(refusals.post("/v1/orders", order(manyBad)).text("field"))
        .isEqualTo("items[0].quantity");
    ShopResponse noAccount =
        refusals.post("/v1/orders", "{\"items\":[" + item("\"TEA-1\"", "0") + "]}");
    noAccount.assertProblem(422, "validation-failed");
    assertThat(noAccount.text("field")).isEqualTo("accountId");
    // Within an item, the sku comes before the quantity; the list's size before its members.
    assertThat(refusals.post("/v1/orders", order(TEA + "," + item("\"B 1\"", "0"))).text("field"))
        .isEqualTo("items[1].sku");
    String hundredAndOne =
        IntStream.range(0, 101)
            .mapToObj(i -> item("\"B-" + i + "\"", "0"))
            .collect(Collectors.joining(","));
    assertThat(refusals.post("/v1/orders", order(hundredAndOne)).text("field")).isEqualTo("items");
  }

  private void assertOrderNotFound(String id) {
    client.get("/v1/orders/" + id).assertProblem(404, "order-not-found");
    refusals.postEmpty("/v1/orders/" + id + "/pay").assertProblem(404, "order-not-found");
    refusals.postEmpty("/v1/orders/" + id + "/cancel").assertProblem(404, "order-not-found");
  }

  private void product(String sku, String price, String currency, long stock) {
    new OrderFixture(client, jdbc).product(sku, price, currency, stock);
  }
}
