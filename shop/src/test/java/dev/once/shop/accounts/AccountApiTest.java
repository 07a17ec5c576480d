package dev.once.shop.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.RowCounts;
import dev.once.shop.support.ShopIntegrationTest;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The accounts API: opening, reading, deposits and the journal, with their happy paths. */
class AccountApiTest extends ShopIntegrationTest {
  private TestClient client;

  @BeforeEach
  void newClientPerTest() {
    client = newClient();
  }

  @Test
  void opensAnAccountWithZeroBalanceAndLocation() {
    ShopResponse created = client.post("/v1/accounts", "{\"currency\":\"EUR\"}").assertStatus(201);

    String id = created.text("id");
    assertThat(id).startsWith("acc_");
    assertThat(created.fieldNames()).containsExactly("id", "currency", "balance");
    assertThat(created.text("currency")).isEqualTo("EUR");
    assertThat(created.text("balance")).isEqualTo("0.0000");
    assertThat(created.header("Location")).hasValue("/v1/accounts/" + id);
    assertThat(created.header("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));

    ShopResponse read = client.get("/v1/accounts/" + id).assertStatus(200);
    assertThat(read.body()).isEqualTo(created.body());
  }

  @Test
  void depositCreditsTheAccountAndAnswersTheNewBalance() {
    String account = client.openAccount("USD");

    ShopResponse first =
        client.post("/v1/accounts/" + account + "/deposits", "{\"amount\":\"12.50\"}");
    first.assertStatus(201);
    assertThat(first.fieldNames()).containsExactly("operationId", "accountId", "amount", "balance");
    assertThat(first.text("operationId")).startsWith("op_");
    assertThat(first.text("accountId")).isEqualTo(account);
    assertThat(first.text("amount")).isEqualTo("12.5000");
    assertThat(first.text("balance")).isEqualTo("12.5000");

    ShopResponse second =
        client.post("/v1/accounts/" + account + "/deposits", "{\"amount\":\"0.01\"}");
    assertThat(second.assertStatus(201).text("balance")).isEqualTo("12.5100");
    assertThat(client.balance(account)).isEqualTo("12.5100");
  }

  @Test
  void acceptsTheLargestAmount() {
    // CLF has 4 minor units: the largest amount the wire format allows fits it.
    String account = client.openAccount("CLF");
    ShopResponse deposit =
        client.post(
            "/v1/accounts/" + account + "/deposits", "{\"amount\":\"9999999999999999.9999\"}");
    assertThat(deposit.assertStatus(201).text("balance")).isEqualTo("9999999999999999.9999");
  }

  @Test
  void journalPagesInWriteOrderWithCursor() {
    String account = client.openAccount("EUR");
    List<String> written = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      written.add(client.deposit(account, i + ".00").text("operationId"));
    }

    ShopResponse page1 = client.get("/v1/accounts/" + account + "/operations?limit=2");
    page1.assertStatus(200);
    assertThat(page1.fieldNames()).containsExactly("items", "next");
    JsonNode item = page1.json().get("items").get(0);
    assertThat(new ArrayList<>(item.propertyNames()))
        .containsExactly("id", "amount", "kind", "reverses", "createdAt");
    assertThat(item.get("id").stringValue()).isEqualTo(written.get(0));
    assertThat(item.get("amount").stringValue()).isEqualTo("1.0000");
    assertThat(item.get("kind").stringValue()).isEqualTo("deposit");
    assertThat(item.get("reverses").isNull()).isTrue();
    assertThat(item.get("createdAt").stringValue()).endsWith("Z");
    assertThat(page1.text("next")).isEqualTo(written.get(1));

    ShopResponse page2 =
        client.get("/v1/accounts/" + account + "/operations?limit=2&after=" + written.get(1));
    assertThat(ids(page2)).containsExactly(written.get(2), written.get(3));
    ShopResponse page3 =
        client.get("/v1/accounts/" + account + "/operations?limit=2&after=" + written.get(3));
    assertThat(ids(page3)).containsExactly(written.get(4));
    assertThat(page3.json().get("next").isNull()).isTrue();

    ShopResponse all = client.get("/v1/accounts/" + account + "/operations");
    assertThat(ids(all)).containsExactlyElementsOf(written);
    assertThat(all.json().get("next").isNull()).isTrue();
  }

  @Test
  void emptyJournalHasNoItemsAndNoNext() {
    String account = client.openAccount("JPY");
    ShopResponse page = client.get("/v1/accounts/" + account + "/operations?limit=200");
    assertThat(page.assertStatus(200).json().get("items").isEmpty()).isTrue();
    assertThat(page.json().get("next").isNull()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "201", "-1", "abc", "", "1.5", "99999999999"})
  void refusesALimitOutsideOneTo200(String limit) {
    String account = client.openAccount("EUR");
    client
        .get("/v1/accounts/" + account + "/operations?limit=" + limit)
        .assertProblem(400, "invalid-parameter");
  }

  @Test
  void refusesACursorThatIsNotAnOperationOfTheAccount() {
    String account = client.openAccount("EUR");
    String other = client.openAccountWith("EUR", "1");
    String foreignOperation =
        client
            .get("/v1/accounts/" + other + "/operations")
            .json()
            .get("items")
            .get(0)
            .get("id")
            .stringValue();

    client
        .get("/v1/accounts/" + account + "/operations?after=op_unknown")
        .assertProblem(400, "invalid-parameter");
    client
        .get("/v1/accounts/" + account + "/operations?after=" + foreignOperation)
        .assertProblem(400, "invalid-parameter");
  }

  @Test
  void anotherClientsAccountIsNotFoundAndUntouched() {
    String theirs = newClient().openAccountWith("EUR", "10");
    RowCounts before = rowCounts();

    client.get("/v1/accounts/" + theirs).assertProblem(404, "account-not-found");
    client
        .post("/v1/accounts/" + theirs + "/deposits", "{\"amount\":\"5\"}")
        .assertProblem(404, "account-not-found");
    client.get("/v1/accounts/" + theirs + "/operations").assertProblem(404, "account-not-found");
    client.get("/v1/accounts/acc_missing").assertProblem(404, "account-not-found");
    client
        .post("/v1/accounts/acc_missing/deposits", "{\"amount\":\"5\"}")
        .assertProblem(404, "account-not-found");

    assertThat(rowCounts()).isEqualTo(before);
  }

  private static List<String> ids(ShopResponse page) {
    List<String> ids = new ArrayList<>();
    page.assertStatus(200).json().get("items").forEach(i -> ids.add(i.get("id").stringValue()));
    return ids;
  }
}
