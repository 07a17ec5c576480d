package dev.once.client;

import dev.once.client.api.AccountsApi;
import dev.once.client.api.ClientsApi;
import dev.once.client.api.OrdersApi;
import dev.once.client.api.PaymentsApi;
import dev.once.client.api.ProductsApi;
import dev.once.client.model.Account;
import dev.once.client.model.CreateClientRequest;
import dev.once.client.model.CreatedClient;
import dev.once.client.model.Deposit;
import dev.once.client.model.DepositRequest;
import dev.once.client.model.OpenAccountRequest;
import dev.once.client.model.Order;
import dev.once.client.model.OrderItemRequest;
import dev.once.client.model.Payment;
import dev.once.client.model.PaymentRequest;
import dev.once.client.model.PlaceOrderRequest;
import dev.once.client.model.Problem;
import dev.once.client.model.Product;
import dev.once.client.model.ProductRequest;
import dev.once.client.model.Refund;
import dev.once.client.model.RefundList;
import dev.once.client.model.RefundRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The README's curl sessions, run through the client that openapi-generator generated from the
 * shop's OpenAPI description (bench/openapi-client.sh): a retried payment replayed, the same key
 * with another body refused with a typed {@link Problem}, payments settled, declined and refunded,
 * and an order reserved, paid and cancelled. It uses the generated API and model classes only (no
 * HTTP code of its own), prints every step and exits with status 1 at the first answer that differs
 * from the README's.
 *
 * <p>Usage: {@code Session <base URL> <admin token file>}
 */
public final class Session {
  private static final Duration PATIENCE = Duration.ofSeconds(15);

  private final ApiClient admin;
  private final String baseUrl;
  private AccountsApi accounts;
  private PaymentsApi payments;
  private ProductsApi products;
  private OrdersApi orders;
  private ApiClient client;
  private String account;
  private int steps;

  private Session(String baseUrl, String adminToken) {
    this.baseUrl = baseUrl;
    this.admin = apiClient(baseUrl, adminToken);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: Session <base URL> <admin token file>");
      System.exit(2);
    }
    String token = Files.readString(Path.of(args[1])).strip();
    Session session = new Session(args[0], token);
    try {
      session.retriedPayment();
      session.settlements();
      session.order();
    } catch (Mismatch | ApiException e) {
      System.out.println("FAIL  " + describe(e));
      System.exit(1);
    }
    System.out.println("OK    " + session.steps + " steps, every answer as the README says");
  }

  /** "A retried payment, replayed": client, account, deposit, a payment and its replay, a reuse. */
  private void retriedPayment() throws ApiException, IOException {
    ApiResponse<CreatedClient> created =
        new ClientsApi(admin).createClientWithHttpInfo(new CreateClientRequest().name("acme"));
    expect(created.getStatusCode() == 201, "client created: 201", created.getStatusCode());
    String apiKey = created.getData().getApiKey();
    expect(apiKey != null && !apiKey.isEmpty(), "client created: an API key", created.getData());
    step("POST /admin/v1/clients", "201, client " + created.getData().getId());
    client = apiClient(baseUrl, apiKey);
    accounts = new AccountsApi(client);
    payments = new PaymentsApi(client);
    products = new ProductsApi(client);
    orders = new OrdersApi(client);

    ApiResponse<Account> opened =
        accounts.openAccountWithHttpInfo("acc-1", new OpenAccountRequest().currency("EUR"));
    String account = opened.getData().getId();
    expect(opened.getStatusCode() == 201, "account opened: 201", opened.getStatusCode());
    expectEquals("/v1/accounts/" + account, location(opened), "account opened: Location");
    step("POST /v1/accounts", "201, " + account + ", Location " + location(opened));

    ApiResponse<Deposit> deposit =
        accounts.depositWithHttpInfo(account, "dep-1", new DepositRequest().amount("100.00"));
    expect(deposit.getStatusCode() == 201, "deposit: 201", deposit.getStatusCode());
    expectEquals("100.0000", deposit.getData().getBalance(), "deposit: balance");
    step("POST /v1/accounts/{id}/deposits", "201, balance " + deposit.getData().getBalance());

    PaymentRequest payment =
        new PaymentRequest().accountId(account).amount("12.50").currency("EUR");
    ApiResponse<Payment> first = payments.createPaymentWithHttpInfo("order-42-payment", payment);
    expect(first.getStatusCode() == 201, "payment: 201", first.getStatusCode());
    String paymentId = first.getData().getId();
    expectEquals("/v1/payments/" + paymentId, location(first), "payment: Location");
    expect(
        !"true".equals(header(first, "Idempotent-Replayed")),
        "first payment: no Idempotent-Replayed: true",
        header(first, "Idempotent-Replayed"));
    step("POST /v1/payments", "201, " + paymentId + ", " + first.getData().getStatus());

    ApiResponse<Payment> replay = payments.createPaymentWithHttpInfo("order-42-payment", payment);
    expect(replay.getStatusCode() == 201, "replay: 201", replay.getStatusCode());
    expectEquals("true", header(replay, "Idempotent-Replayed"), "replay: Idempotent-Replayed");
    expectEquals(paymentId, replay.getData().getId(), "replay: the same payment id");
    expectEquals(location(first), location(replay), "replay: the same Location");
    expectEquals(first.getData(), replay.getData(), "replay: the same body");
    step(
        "POST /v1/payments (same key, same body)",
        "201, " + paymentId + ", Idempotent-Replayed: " + header(replay, "Idempotent-Replayed"));

    Account afterPayment = accounts.getAccount(account);
    expectEquals("87.5000", afterPayment.getBalance(), "balance after a payment and its replay");
    step("GET /v1/accounts/{id}", "balance " + afterPayment.getBalance() + ": charged once");

    Problem reused =
        problem(() -> payments.createPayment("order-42-payment", payment.amount("13.00")), 422);
    expectType(reused, "idempotency-key-reused");
    step("POST /v1/payments (same key, other body)", problemLine(reused));
    this.account = account;
  }

  /** "A payment settles, a decline gives the money back, a refund settles". */
  private void settlements() throws ApiException {
    Payment settled =
        payments.createPayment(
            "pay-2", new PaymentRequest().accountId(account).amount("20.00").currency("EUR"));
    Payment succeeded =
        await(
            () -> payments.getPayment(settled.getId()),
            p -> p.getStatus() != Payment.StatusEnum.PENDING);
    expectEquals(Payment.StatusEnum.SUCCEEDED, succeeded.getStatus(), "payment pay-2 settles");
    step("POST /v1/payments, GET /v1/payments/{id}", settled.getId() + " " + succeeded.getStatus());

    Payment declined =
        payments.createPayment(
            "pay-3", new PaymentRequest().accountId(account).amount("10.51").currency("EUR"));
    Payment failed =
        await(
            () -> payments.getPayment(declined.getId()),
            p -> p.getStatus() != Payment.StatusEnum.PENDING);
    expectEquals(Payment.StatusEnum.FAILED, failed.getStatus(), "payment of 10.51 is declined");
    Account reversed =
        await(() -> accounts.getAccount(account), a -> "67.5000".equals(a.getBalance()));
    step(
        "POST /v1/payments (10.51, declined)",
        declined.getId() + " " + failed.getStatus() + ", balance " + reversed.getBalance());

    Refund refund =
        payments.refundPayment(settled.getId(), "ref-1", new RefundRequest().amount("5.00"));
    RefundList refunds =
        await(
            () -> payments.listRefunds(settled.getId()),
            list ->
                list.getItems() != null
                    && !list.getItems().isEmpty()
                    && list.getItems().get(0).getStatus() != Refund.StatusEnum.PENDING);
    expectEquals(
        Refund.StatusEnum.SUCCEEDED, refunds.getItems().get(0).getStatus(), "refund ref-1 settles");
    Account credited = accounts.getAccount(account);
    expectEquals("72.5000", credited.getBalance(), "balance after the refund");
    step(
        "POST /v1/payments/{id}/refunds, GET .../refunds",
        refund.getId()
            + " "
            + refunds.getItems().get(0).getStatus()
            + ", balance "
            + credited.getBalance());
  }

  /** "An order: reserved, paid, cancelled". */
  private void order() throws ApiException {
    ApiResponse<Product> tea =
        products.createProductWithHttpInfo(
            "prod-tea",
            new ProductRequest()
                .sku("TEA-GREEN")
                .name("Green tea, 100 g")
                .price("4.20")
                .currency("EUR")
                .stock(10));
    expect(tea.getStatusCode() == 201, "product created: 201", tea.getStatusCode());
    expectEquals("/v1/products/TEA-GREEN", location(tea), "product created: Location");
    products.createProduct(
        "prod-cup",
        new ProductRequest().sku("CUP").name("Cup").price("7.50").currency("EUR").stock(3));
    step("POST /v1/products (twice)", "TEA-GREEN stock " + tea.getData().getStock() + ", CUP");

    ApiResponse<Order> placed =
        orders.placeOrderWithHttpInfo(
            "order-1",
            new PlaceOrderRequest()
                .accountId(account)
                .items(
                    List.of(
                        new OrderItemRequest().sku("TEA-GREEN").quantity(2),
                        new OrderItemRequest().sku("CUP").quantity(1))));
    expect(placed.getStatusCode() == 201, "order placed: 201", placed.getStatusCode());
    String order = placed.getData().getId();
    expect(order.startsWith("ord_"), "order id ord_…", order);
    Order reserved =
        await(() -> orders.getOrder(order), o -> o.getStatus() != Order.StatusEnum.PLACED);
    expectEquals(Order.StatusEnum.RESERVED, reserved.getStatus(), "order 1 reserved");
    expectEquals("15.9000", reserved.getTotal(), "order 1 total");
    step(
        "POST /v1/orders, GET /v1/orders/{id}",
        order + " " + reserved.getStatus() + ", total " + reserved.getTotal());

    ApiResponse<Payment> paid = orders.payOrderWithHttpInfo(order, "order-1-pay");
    expect(paid.getStatusCode() == 201, "order paid: 201", paid.getStatusCode());
    Order afterPay =
        await(() -> orders.getOrder(order), o -> o.getStatus() == Order.StatusEnum.PAID);
    expect(
        afterPay.getPaymentId() != null && afterPay.getPaymentId().startsWith("pay_"),
        "order 1 paid: its payment id pay_…",
        afterPay.getPaymentId());
    step("POST /v1/orders/{id}/pay", afterPay.getStatus() + ", payment " + afterPay.getPaymentId());

    Order second =
        orders.placeOrder(
            "order-2",
            new PlaceOrderRequest()
                .accountId(account)
                .items(List.of(new OrderItemRequest().sku("TEA-GREEN").quantity(3))));
    Order held =
        await(() -> orders.getOrder(second.getId()), o -> o.getStatus() != Order.StatusEnum.PLACED);
    expectEquals(Order.StatusEnum.RESERVED, held.getStatus(), "order 2 reserved");
    Product tea2 = products.getProduct("TEA-GREEN");
    expectEquals(5L, tea2.getStock(), "TEA-GREEN stock with order 2 reserved");
    expectEquals(5L, tea2.getReserved(), "TEA-GREEN reserved with order 2 reserved");
    step(
        "POST /v1/orders, GET /v1/products/TEA-GREEN",
        held.getId()
            + " "
            + held.getStatus()
            + ", stock "
            + tea2.getStock()
            + ", reserved "
            + tea2.getReserved());

    ApiResponse<Order> cancelled = orders.cancelOrderWithHttpInfo(second.getId(), "order-2-cancel");
    expect(cancelled.getStatusCode() == 200, "order cancelled: 200", cancelled.getStatusCode());
    expectEquals(Order.StatusEnum.CANCELLED, cancelled.getData().getStatus(), "order 2 cancelled");
    Product back =
        await(() -> products.getProduct("TEA-GREEN"), p -> Objects.equals(p.getStock(), 8L));
    expectEquals(2L, back.getReserved(), "TEA-GREEN reserved after order 2 is cancelled");
    step(
        "POST /v1/orders/{id}/cancel, GET /v1/products/TEA-GREEN",
        cancelled.getData().getStatus()
            + ", stock "
            + back.getStock()
            + ", reserved "
            + back.getReserved());

    Problem state = problem(() -> orders.payOrder(second.getId(), "order-2-pay"), 422);
    expectType(state, "invalid-order-state");
    step("POST /v1/orders/{id}/pay (cancelled order)", problemLine(state));
  }

  // --- the generated client, its answers and its problems

  private static ApiClient apiClient(String baseUrl, String bearer) {
    ApiClient apiClient = new ApiClient();
    apiClient.updateBaseUri(baseUrl);
    apiClient.setReadTimeout(Duration.ofSeconds(10));
    apiClient.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + bearer));
    return apiClient;
  }

  /** A call that must fail with {@code status}: its problem, as the generated model. */
  private Problem problem(Call<?> call, int status) throws ApiException {
    try {
      Object answer = call.run();
      throw new Mismatch("expected " + status + " with a problem, got a success: " + answer);
    } catch (ApiException e) {
      if (e.getCode() != status) {
        throw e;
      }
      String type = e.getResponseHeaders().firstValue("Content-Type").orElse("");
      expectEquals(
          "application/problem+json", type.split(";")[0].trim(), status + ": Content-Type");
      Problem problem;
      try {
        problem = client.getObjectMapper().readValue(e.getResponseBody(), Problem.class);
      } catch (IOException unreadable) {
        throw new Mismatch(status + ": not a Problem: " + e.getResponseBody());
      }
      expectEquals(status, problem.getStatus(), status + ": the problem's status");
      return problem;
    }
  }

  private static void expectType(Problem problem, String slug) {
    String type = String.valueOf(problem.getType());
    expect(type.endsWith("/" + slug), "problem type …/" + slug, type);
  }

  private static String problemLine(Problem problem) {
    return problem.getStatus()
        + " Problem{type="
        + problem.getType()
        + ", title=\""
        + problem.getTitle()
        + "\"}";
  }

  private static String location(ApiResponse<?> response) {
    return header(response, "Location");
  }

  private static String header(ApiResponse<?> response, String name) {
    for (Map.Entry<String, List<String>> header : response.getHeaders().entrySet()) {
      if (header.getKey().equalsIgnoreCase(name) && !header.getValue().isEmpty()) {
        return header.getValue().get(0);
      }
    }
    return null;
  }

  /**
   * Reads until the answer satisfies {@code done} (the relay and the consumers are asynchronous).
   */
  private static <T> T await(Call<T> read, Predicate<T> done) throws ApiException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    T last = read.run();
    while (!done.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new Mismatch("still not there after " + PATIENCE.toSeconds() + " s: " + last);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Mismatch("interrupted");
      }
      last = read.run();
    }
    return last;
  }

  private void step(String request, String outcome) {
    steps++;
    System.out.printf("ok    %-58s %s%n", request, outcome);
  }

  private static void expect(boolean condition, String what, Object actual) {
    if (!condition) {
      throw new Mismatch(what + ", got " + actual);
    }
  }

  private static void expectEquals(Object expected, Object actual, String what) {
    if (!Objects.equals(expected, actual)) {
      throw new Mismatch(what + ": expected " + expected + ", got " + actual);
    }
  }

  private static String describe(Exception e) {
    if (e instanceof ApiException api && api.getCode() != 0) {
      return "HTTP " + api.getCode() + " " + api.getResponseBody();
    }
    return e.getMessage();
  }

  @FunctionalInterface
  private interface Call<T> {
    T run() throws ApiException;
  }

  private static final class Mismatch extends RuntimeException {
    Mismatch(String message) {
      super(message);
    }
  }
}
