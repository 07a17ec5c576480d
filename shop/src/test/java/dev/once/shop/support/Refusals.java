package dev.once.shop.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Requests a test expects to be refused, each sent under its own Idempotency-Key, so that the test
 * can then prove that the only trace they left is the refusal Once keeps for a replay: {@link
 * #assertOnlyRefusalsStored} finds no {@code once.idempotency_key} row but those of these keys,
 * each holding exactly the answer the client got. (Whether a refusal is stored is Once's rule: the
 * handler's own 4xx are, 409 and 415 are not.) The business tables are checked with {@link
 * RowCounts}.
 */
public final class Refusals {
  private final JdbcClient jdbc;
  private final TestClient client;
  private final long keysBefore;
  private final Map<String, ShopResponse> answers = new LinkedHashMap<>();

  public Refusals(JdbcClient jdbc, TestClient client) {
    this.jdbc = jdbc;
    this.client = client;
    this.keysBefore = keyCount();
  }

  /** A JSON POST under a fresh key. */
  public ShopResponse post(String path, String json) {
    String key = ShopHttp.newKey();
    ShopResponse answer = client.http().post(path, client.apiKey(), key, json);
    answers.put(key, answer);
    return answer;
  }

  /** A POST without a body under a fresh key. */
  public ShopResponse postEmpty(String path) {
    return send(path, null, HttpRequest.BodyPublishers.noBody());
  }

  /** A POST of {@code body} as {@code contentType} under a fresh key. */
  public ShopResponse post(String path, String contentType, String body) {
    return send(
        path, contentType, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
  }

  private ShopResponse send(String path, String contentType, HttpRequest.BodyPublisher body) {
    String key = ShopHttp.newKey();
    HttpRequest.Builder request =
        client
            .http()
            .request(path)
            .header("Authorization", "Bearer " + client.apiKey())
            .header("Idempotency-Key", key)
            .POST(body);
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    ShopResponse answer = client.http().send(request);
    answers.put(key, answer);
    return answer;
  }

  /**
   * Asserts that no idempotency key was stored since this object was made but those of its
   * requests, each with the status and body its request was answered with.
   */
  public void assertOnlyRefusalsStored() {
    List<Map<String, Object>> stored =
        jdbc.sql(
                """
                SELECT idem_key, state, status_code, convert_from(body, 'UTF8') AS body
                FROM once.idempotency_key WHERE idem_key IN (:keys)
                """)
            .param("keys", answers.isEmpty() ? List.of("-") : List.copyOf(answers.keySet()))
            .query()
            .listOfRows();
    assertThat(keyCount()).as("idempotency keys stored").isEqualTo(keysBefore + stored.size());
    for (Map<String, Object> row : stored) {
      ShopResponse answer = answers.get((String) row.get("idem_key"));
      assertThat(answer.status()).as("a stored answer is a refusal").isBetween(400, 499);
      assertThat(row.get("state")).isEqualTo("completed");
      assertThat(row.get("status_code")).isEqualTo(answer.status());
      assertThat(row.get("body")).isEqualTo(answer.body());
    }
  }

  private long keyCount() {
    return jdbc.sql("SELECT count(*) FROM once.idempotency_key").query(Long.class).single();
  }
}
