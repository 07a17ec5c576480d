package dev.once.shop.stock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.Refusals;
import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad input on the products API: each gets its problem (naming the field where the shop does), no
 * internals, and nothing is written but the refusal Once keeps for a replay.
 */
class ProductValidationTest extends ShopIntegrationTest {
  private static final String GOOD =
      "{\"sku\":\"TEA-1\",\"name\":\"Tea\",\"price\":\"4.20\",\"currency\":\"EUR\",\"stock\":7}";

  private TestClient client;
  private Refusals refusals;
  private RowCounts before;

  @BeforeEach
  void aProduct() {
    client = newClient();
    client.post("/v1/products", GOOD).assertStatus(201);
    refusals = new Refusals(jdbc, client);
    before = rowCounts();
  }

  @AfterEach
  void nothingWasWritten() {
    if (before != null) {
      assertThat(rowCounts()).isEqualTo(before);
      refusals.assertOnlyRefusalsStored();
      assertUnchanged();
    }
  }

  /** A product body with one member replaced by {@code member} (a name and a raw JSON value). */
  private static String with(String name, String rawValue) {
    String sku = "\"NEW-1\"";
    String productName = "\"New\"";
    String price = "\"1.50\"";
    String currency = "\"EUR\"";
    String stock = "3";
    switch (name) {
      case "sku":
        sku = rawValue;
        break;
      case "name":
        productName = rawValue;
        break;
      case "price":
        price = rawValue;
        break;
      case "currency":
        currency = rawValue;
        break;
      case "stock":
        stock = rawValue;
        break;
      default:
        throw new IllegalArgumentException(name);
    }
    return member("sku", sku)
        + member("name", productName)
        + member("price", price)
        + member("currency", currency)
        + member("stock", stock);
  }

  private static String member(String name, String rawValue) {
    return rawValue == null ? "" : "\"" + name + "\":" + rawValue + ",";
  }

  private static String body(String members) {
    return "{" + members.substring(0, members.length() - 1) + "}";
  }

  static Stream<Arguments> badMembers() {
    return Stream.of(
        // sku: 1 to 64 of [A-Za-z0-9._-], the first a letter or digit, a JSON string, required
        Arguments.of("sku", "\".\"", "validation-failed"),
        Arguments.of("sku", "\"..\"", "validation-failed"),
        Arguments.of("sku", "\"-TEA\"", "validation-failed"),
        Arguments.of("sku", "\"_TEA\"", "validation-failed"),
        Arguments.of("sku", "\"TEA 1\"", "validation-failed"),
        Arguments.of("sku", "\" TEA-1\"", "validation-failed"),
        Arguments.of("sku", "\"" + "S".repeat(65) + "\"", "validation-failed"),
        Arguments.of("sku", "\"TÉA\"", "validation-failed"),
        Arguments.of("sku", "\"T\\u0000A\"", "validation-failed"),
        Arguments.of("sku", "\"TEA/1\"", "validation-failed"),
        Arguments.of("sku", "\"\"", "validation-failed"),
        Arguments.of("sku", "null", "validation-failed"),
        Arguments.of("sku", null, "validation-failed"),
        Arguments.of("sku", "42", "validation-failed"),
        // name: not blank, at most 200 code points, no NUL
        Arguments.of("name", "\"   \"", "validation-failed"),
        Arguments.of("name", "\"\"", "validation-failed"),
        Arguments.of("name", "\"" + "n".repeat(201) + "\"", "validation-failed"),
        Arguments.of("name", "\"" + "😀".repeat(201) + "\"", "validation-failed"),
        Arguments.of("name", "\"a\\u0000b\"", "validation-failed"),
        Arguments.of("name", null, "validation-failed"),
        Arguments.of("name", "true", "validation-failed"),
        // price: a money string
        Arguments.of("price", "4.2", "invalid-amount"),
        Arguments.of("price", "4", "invalid-amount"),
        Arguments.of("price", "\"0\"", "invalid-amount"),
        Arguments.of("price", "\"0.0000\"", "invalid-amount"),
        Arguments.of("price", "\"-1\"", "invalid-amount"),
        Arguments.of("price", "\"1.00001\"", "invalid-amount"),
        Arguments.of("price", "\"1e2\"", "invalid-amount"),
        Arguments.of("price", "\"12345678901234567\"", "invalid-amount"),
        Arguments.of("price", "\"abc\"", "invalid-amount"),
        Arguments.of("price", null, "validation-failed"),
        // currency: an ISO 4217 code
        Arguments.of("currency", "\"eur\"", "invalid-currency"),
        Arguments.of("currency", "\"XYZ\"", "invalid-currency"),
        Arguments.of("currency", "\"EURO\"", "invalid-currency"),
        Arguments.of("currency", "978", "invalid-currency"),
        Arguments.of("currency", null, "validation-failed"),
        // stock: a JSON integer 0..1,000,000,000
        Arguments.of("stock", "-1", "validation-failed"),
        Arguments.of("stock", "1000000001", "validation-failed"),
        Arguments.of("stock", "123456789012345678901234567890", "validation-failed"),
        Arguments.of("stock", "\"5\"", "validation-failed"),
        Arguments.of("stock", "1.5", "validation-failed"),
        Arguments.of("stock", "5.0", "validation-failed"),
        Arguments.of("stock", "1e3", "validation-failed"),
        Arguments.of("stock", "1e400", "validation-failed"),
        Arguments.of("stock", "true", "validation-failed"),
        Arguments.of("stock", "null", "validation-failed"),
        Arguments.of("stock", null, "validation-failed"),
        Arguments.of("stock", "[5]", "validation-failed"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("badMembers")
  void refusesABadMember(String field, String rawValue, String slug) {
    ShopResponse answer = refusals.post("/v1/products", body(with(field, rawValue)));

    answer.assertProblem(422, slug);
    assertThat(answer.text("field")).isEqualTo(field);
    assertThat(answer.text("detail")).contains(field);
  }

  static Stream<Arguments> badDocuments() {
    return Stream.of(
        Arguments.of("{\"sku\":\"NEW-1\",", 400, "malformed-json", null),
        Arguments.of("", 400, "malformed-json", null),
        Arguments.of("nope", 400, "malformed-json", null),
        Arguments.of(GOOD + "{}", 400, "malformed-json", null),
        Arguments.of(
            "{\"sku\":\"NEW-1\",\"sku\":\"NEW-2\",\"name\":\"New\",\"price\":\"1\","
                + "\"currency\":\"EUR\",\"stock\":1}",
            400,
            "malformed-json",
            null),
        Arguments.of("[]", 422, "validation-failed", null),
        Arguments.of("null", 422, "validation-failed", null),
        Arguments.of("{}", 422, "validation-failed", "sku"),
        Arguments.of(
            body(with("sku", "\"NEW-1\"") + "\"colour\":\"red\","),
            422,
            "validation-failed",
            "colour"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badDocuments")
  void refusesABadDocument(String body, int status, String slug, String field) {
    ShopResponse answer = refusals.post("/v1/products", body);

    answer.assertProblem(status, slug);
    if (field != null) {
      assertThat(answer.text("field")).isEqualTo(field);
    }
  }

  @Test
  void anExistingSkuIsAConflictThatChangesNothing() {
    ShopResponse answer =
        refusals.post(
            "/v1/products",
            "{\"sku\":\"TEA-1\",\"name\":\"Other\",\"price\":\"9\",\"currency\":\"USD\","
                + "\"stock\":1}");

    answer.assertProblem(409, "product-exists");
    assertThat(answer.text("detail")).contains("TEA-1");
    // assertUnchanged (after each test) shows the first product as it was.
  }

  @Test
  void refusesWrongContentTypes() {
    for (String path : new String[] {"/v1/products", "/v1/products/TEA-1/restock"}) {
      refusals
          .post(path, "text/plain", "{\"quantity\":1}")
          .assertProblem(415, "unsupported-media-type");
      refusals
          .post(path, "application/x-www-form-urlencoded", "quantity=1")
          .assertProblem(415, "unsupported-media-type");
      refusals.postEmpty(path).assertProblem(415, "unsupported-media-type");
    }
  }

  static Stream<Arguments> badRestocks() {
    return Stream.of(
        Arguments.of("{\"quantity\":0}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":-1}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":1000000001}", 422, "validation-failed", "quantity"),
        Arguments.of(
            "{\"quantity\":99999999999999999999999999999}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":\"5\"}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":1.5}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":2.0}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":1e400}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":true}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":null}", 422, "validation-failed", "quantity"),
        Arguments.of("{}", 422, "validation-failed", "quantity"),
        Arguments.of("{\"quantity\":1,\"note\":\"x\"}", 422, "validation-failed", "note"),
        Arguments.of("{\"quantity\":", 400, "malformed-json", null),
        Arguments.of("5", 422, "validation-failed", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRestocks")
  void refusesABadRestock(String body, int status, String slug, String field) {
    ShopResponse answer = refusals.post("/v1/products/TEA-1/restock", body);

    answer.assertProblem(status, slug);
    if (field != null) {
      assertThat(answer.text("field")).isEqualTo(field);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "NOPE-1",
        "tea-1",
        "TEA%201",
        "T%C3%89A",
        "%20",
        "TEA-1.",
        "-TEA",
        "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS"
      })
  void unknownAndMalformedSkusAreNotFound(String sku) {
    client.get("/v1/products/" + sku).assertProblem(404, "product-not-found");
    refusals
        .post("/v1/products/" + sku + "/restock", "{\"quantity\":1}")
        .assertProblem(404, "product-not-found");
  }

  @Test
  void aThousandCharacterSkuIsNotFound() {
    String sku = "A".repeat(1_000);
    client.get("/v1/products/" + sku).assertProblem(404, "product-not-found");
    refusals
        .post("/v1/products/" + sku + "/restock", "{\"quantity\":1}")
        .assertProblem(404, "product-not-found");
  }

  @Test
  void acceptsTheBoundaries() {
    // Kept out of the "nothing written" check: each of these is stored.
    before = null;
    String sku = "Az09._-" + "x".repeat(57);
    ShopResponse created =
        client.post(
            "/v1/products",
            "{\"sku\":\""
                + sku
                + "\",\"name\":\""
                + "😀".repeat(200)
                + "\",\"price\":\"9999999999999999.9999\",\"currency\":\"CLF\","
                + "\"stock\":1000000000}");
    created.assertStatus(201);
    assertThat(created.text("sku")).isEqualTo(sku);
    assertThat(created.json().get("stock").asLong()).isEqualTo(1_000_000_000L);
    assertThat(created.text("price")).isEqualTo("9999999999999999.9999");
    assertThat(client.get("/v1/products/" + sku).body()).isEqualTo(created.body());
    ShopResponse restocked =
        client.post("/v1/products/" + sku + "/restock", "{\"quantity\":1000000000}");
    restocked.assertStatus(200);
    assertThat(restocked.json().get("stock").asLong()).isEqualTo(2_000_000_000L);
    client
        .post(
            "/v1/products",
            "{\"sku\":\"ZERO\",\"name\":\"n\",\"price\":\"0.0001\",\"currency\":\"CLF\","
                + "\"stock\":0}")
        .assertStatus(201);
  }

  private void assertUnchanged() {
    ShopResponse product = client.get("/v1/products/TEA-1").assertStatus(200);
    assertThat(product.body())
        .isEqualTo(
            "{\"sku\":\"TEA-1\",\"name\":\"Tea\",\"price\":\"4.2000\",\"currency\":\"EUR\","
                + "\"stock\":7,\"reserved\":0}");
  }
}
