package dev.once.verify.harness;

import dev.once.verify.http.HttpConnection;
import dev.once.verify.http.HttpRequest;
import dev.once.verify.http.HttpResponse;
import dev.once.verify.http.RequestBytes;
import dev.once.verify.json.Json;
import java.io.IOException;

/**
 * Set-up requests to the shop over one keep-alive connection: a client, accounts, deposits,
 * products.
 */
public final class ShopApi implements AutoCloseable {
  private final HttpConnection http;
  private final String host;
  private final RequestBytes request = new RequestBytes();
  private long keys;

  public ShopApi(int port) {
    this.http = new HttpConnection("localhost", port, 30_000);
    this.host = "localhost:" + port;
  }

  /** Creates a client; returns its API key. */
  public String createClient(String adminToken, String name) throws IOException {
    HttpResponse r =
        post("/admin/v1/clients", "Bearer " + adminToken, null, "{\"name\":\"" + name + "\"}");
    return field(expect(r, 201, "create a client"), "apiKey");
  }

  /** Creates a EUR account; returns its id. */
  public String createAccount(String apiKey) throws IOException {
    HttpResponse r = post("/v1/accounts", "Bearer " + apiKey, nextKey(), "{\"currency\":\"EUR\"}");
    return field(expect(r, 201, "create an account"), "id");
  }

  public void deposit(String apiKey, String account, String amount) throws IOException {
    HttpResponse r =
        post(
            "/v1/accounts/" + account + "/deposits",
            "Bearer " + apiKey,
            nextKey(),
            "{\"amount\":\"" + amount + "\"}");
    expect(r, 201, "deposit");
  }

  /** Creates a product with {@code stock} units available; the answer must be 201. */
  public void createProduct(String apiKey, String sku, String price, String currency, long stock)
      throws IOException {
    String body =
        "{\"sku\":\"%s\",\"name\":\"%s\",\"price\":\"%s\",\"currency\":\"%s\",\"stock\":%d}"
            .formatted(sku, "bench " + sku, price, currency, stock);
    expect(post("/v1/products", "Bearer " + apiKey, nextKey(), body), 201, "create a product");
  }

  /** Sends one payment with {@code key}; the answer must be 201. */
  public void pay(String apiKey, String key, String body) throws IOException {
    expect(post("/v1/payments", "Bearer " + apiKey, key, body), 201, "pay");
  }

  /** An authenticated GET that must answer 200. */
  public void get(String apiKey, String path) throws IOException {
    byte[] head = HttpRequest.head("GET", path, host, "Authorization: Bearer " + apiKey);
    expect(http.exchange(HttpRequest.write(request, head, null)), 200, "GET " + path);
  }

  /**
   * {@code /actuator/prometheus}: every meter of the shop in Prometheus' text format (no
   * credentials; the shop exposes it).
   */
  public String metrics() throws IOException {
    byte[] head = HttpRequest.head("GET", "/actuator/prometheus", host);
    return expect(http.exchange(HttpRequest.write(request, head, null)), 200, "read the metrics");
  }

  @Override
  public void close() {
    http.close();
  }

  private HttpResponse post(String path, String authorization, String key, String body)
      throws IOException {
    byte[] head =
        key == null
            ? HttpRequest.head(
                "POST",
                path,
                host,
                "Authorization: " + authorization,
                "Content-Type: application/json")
            : HttpRequest.head(
                "POST",
                path,
                host,
                "Authorization: " + authorization,
                "Content-Type: application/json",
                "Idempotency-Key: " + key);
    return http.exchange(HttpRequest.write(request, head, body));
  }

  private String nextKey() {
    return "setup-" + System.nanoTime() + "-" + keys++;
  }

  private static String expect(HttpResponse r, int status, String what) throws IOException {
    if (r.status() != status) {
      throw new IOException("could not " + what + ": " + r);
    }
    return r.bodyText();
  }

  /** The string value of a top-level field of a JSON answer. */
  static String field(String json, String name) throws IOException {
    String value = Json.string(json, name);
    if (value == null) {
      throw new IOException("no \"" + name + "\" in " + json);
    }
    return value;
  }
}
