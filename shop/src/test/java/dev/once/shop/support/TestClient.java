package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An API client created through the admin API, with helpers for the calls most tests need.
 *
 * @param http the shop
 * @param id the client's id
 * @param apiKey its API key
 */
public record TestClient(ShopHttp http, String id, String apiKey) {
  private static int counter;

  public static TestClient create(ShopHttp http) {
    ShopResponse created =
        http.admin("/admin/v1/clients", "{\"name\":\"test client " + next() + "\"}")
            .assertStatus(201);
    return new TestClient(http, created.text("id"), created.text("apiKey"));
  }

  private static synchronized int next() {
    return ++counter;
  }

  /** POST with a fresh Idempotency-Key. */
  public ShopResponse post(String path, String json) {
    return http.post(path, apiKey, json);
  }

  /** GET. */
  public ShopResponse get(String path) {
    return http.get(path, apiKey);
  }

  /** Opens an account and returns its id. */
  public String openAccount(String currency) {
    return post("/v1/accounts", "{\"currency\":\"" + currency + "\"}").assertStatus(201).text("id");
  }

  /** Opens an account and pays {@code amount} into it. */
  public String openAccountWith(String currency, String amount) {
    String account = openAccount(currency);
    deposit(account, amount);
    return account;
  }

  /** Pays {@code amount} into the account. */
  public ShopResponse deposit(String accountId, String amount) {
    return post("/v1/accounts/" + accountId + "/deposits", "{\"amount\":\"" + amount + "\"}")
        .assertStatus(201);
  }

  /** Charges {@code amount} from the account through a payment; asserts success. */
  public ShopResponse pay(String accountId, String amount, String currency) {
    return tryToPay(accountId, amount, currency).assertStatus(201);
  }

  /** Asks for a payment of {@code amount} from the account, whatever the answer. */
  public ShopResponse tryToPay(String accountId, String amount, String currency) {
    return post(
        "/v1/payments",
        "{\"accountId\":\""
            + accountId
            + "\",\"amount\":\""
            + amount
            + "\",\"currency\":\""
            + currency
            + "\"}");
  }

  /** The account's balance as the API shows it. */
  public String balance(String accountId) {
    ShopResponse account = get("/v1/accounts/" + accountId).assertStatus(200);
    assertThat(account.text("id")).isEqualTo(accountId);
    return account.text("balance");
  }
}
