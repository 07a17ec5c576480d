package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.TestClient;
import dev.once.shop.support.TransactionRecorder.Begun;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads pay for a transaction only when they need one: a single-row GET is one autocommitted
 * statement (a transaction would add BEGIN and COMMIT round trips), while the journal listing,
 * whose statements share one connection, keeps its read-only transaction.
 */
class ReadTransactionsTest extends ShopIntegrationTest {
  private TestClient client;
  private String account;
  private String payment;

  @BeforeEach
  void accountWithAPayment() {
    client = newClient();
    account = client.openAccountWith("EUR", "100");
    payment = client.pay(account, "10", "EUR").text("id");
  }

  @Test
  void readingAnAccountBeginsNoTransaction() {
    transactions.start();
    client.get("/v1/accounts/" + account).assertStatus(200);
    client.get("/v1/accounts/acc_AAAAAAAAAAAAAAAAAAAAAA").assertProblem(404, "account-not-found");
    assertThat(transactions.stop()).isEmpty();
  }

  @Test
  void readingAPaymentBeginsNoTransaction() {
    transactions.start();
    client.get("/v1/payments/" + payment).assertStatus(200);
    client.get("/v1/payments/pay_AAAAAAAAAAAAAAAAAAAAAA").assertProblem(404, "payment-not-found");
    assertThat(transactions.stop()).isEmpty();
  }

  @Test
  void listingTheJournalRunsInOneReadOnlyTransaction() {
    transactions.start();
    client.get("/v1/accounts/" + account + "/operations?limit=1").assertStatus(200);
    List<Begun> begun = transactions.stop();
    assertThat(begun).hasSize(1);
    assertThat(begun.get(0).name()).isEqualTo("dev.once.shop.accounts.AccountService.operations");
    assertThat(begun.get(0).readOnly()).isTrue();
  }

  @Test
  void theRecorderSeesTheTransactionsOfWrites() {
    // Proves that an empty recording above means "no transaction", not "recorder not wired".
    transactions.start();
    client.deposit(account, "1");
    assertThat(transactions.stop()).extracting(Begun::name).contains("once-idempotent-request");
  }
}
