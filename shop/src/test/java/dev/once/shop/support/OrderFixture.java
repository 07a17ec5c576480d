package dev.once.shop.support;

import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Products and orders of one API client, made over HTTP, and what the database holds for them.
 *
 * @param client the API client
 * @param jdbc the shop's database
 */
public record OrderFixture(TestClient client, JdbcClient jdbc) {
  /** A product's stock as the database holds it. */
  public record Stock(long available, long reserved) {}

  /** Creates a product priced 1.00 EUR with {@code units} available; asserts 201. */
  public void product(String sku, long units) {
    product(sku, "1.00", "EUR", units);
  }

  /** Creates a product named after its sku; asserts 201. */
  public void product(String sku, String price, String currency, long units) {
    client
        .post(
            "/v1/products",
            "{\"sku\":\""
                + sku
                + "\",\"name\":\"Product "
                + sku
                + "\",\"price\":\""
                + price
                + "\",\"currency\":\""
                + currency
                + "\",\"stock\":"
                + units
                + "}")
        .assertStatus(201);
  }

  /** The body of an order of {@code lines} (sku to quantity, in the given order). */
  public static String orderBody(String account, Map<String, Long> lines) {
    return "{\"accountId\":\""
        + account
        + "\",\"items\":["
        + lines.entrySet().stream()
            .map(e -> "{\"sku\":\"" + e.getKey() + "\",\"quantity\":" + e.getValue() + "}")
            .collect(Collectors.joining(","))
        + "]}";
  }

  /** Places an order over HTTP; asserts 201 and returns its id. */
  public String place(String account, Map<String, Long> lines) {
    return client.post("/v1/orders", orderBody(account, lines)).assertStatus(201).text("id");
  }

  /** A POST without a body (pay, cancel), with a fresh Idempotency-Key. */
  public ShopResponse postEmpty(String path) {
    return client
        .http()
        .send(
            client
                .http()
                .request(path)
                .header("Authorization", "Bearer " + client.apiKey())
                .header("Idempotency-Key", ShopHttp.newKey())
                .POST(HttpRequest.BodyPublishers.noBody()));
  }

  /** Pays the order over HTTP; asserts 201 and returns the payment id. */
  public String pay(String order) {
    return postEmpty("/v1/orders/" + order + "/pay").assertStatus(201).text("id");
  }

  /** Cancels the order over HTTP; asserts 200 and returns the order view. */
  public ShopResponse cancel(String order) {
    return postEmpty("/v1/orders/" + order + "/cancel").assertStatus(200);
  }

  /** Lines in the given order: {@code lines("A", 1, "B", 2)}. */
  public static Map<String, Long> lines(Object... skuAndQuantity) {
    Map<String, Long> lines = new LinkedHashMap<>();
    for (int i = 0; i < skuAndQuantity.length; i += 2) {
      lines.put((String) skuAndQuantity[i], ((Number) skuAndQuantity[i + 1]).longValue());
    }
    return lines;
  }

  public Stock stock(String sku) {
    return jdbc.sql("SELECT available, reserved FROM product WHERE client_id = :c AND sku = :s")
        .param("c", client.id())
        .param("s", sku)
        .query((rs, row) -> new Stock(rs.getLong("available"), rs.getLong("reserved")))
        .single();
  }

  public String status(String order) {
    return jdbc.sql("SELECT status FROM orders WHERE id = :id")
        .param("id", order)
        .query(String.class)
        .single();
  }

  /** The order's reservation states by sku (empty: nothing reserved or voided yet). */
  public Map<String, String> reservations(String order) {
    Map<String, String> states = new LinkedHashMap<>();
    jdbc.sql("SELECT sku, state FROM reservation WHERE order_id = :id ORDER BY sku")
        .param("id", order)
        .query(
            (rs, row) -> {
              states.put(rs.getString("sku"), rs.getString("state"));
              return row;
            })
        .list();
    return states;
  }

  /** The order's pending or paying payment id, or null. */
  public String paymentId(String order) {
    List<String> ids =
        jdbc.sql("SELECT payment_id FROM orders WHERE id = :id")
            .param("id", order)
            .query((rs, row) -> rs.getString(1))
            .list();
    return ids.get(0);
  }
}
