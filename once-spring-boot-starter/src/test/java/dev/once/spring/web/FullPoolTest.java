package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * While the pool has no free connection, every idempotent request answers 503 with {@code
 * Retry-After}, and the log gets one line per interval without a stack trace, not a stack trace per
 * request.
 */
@SpringBootTest(
    classes = FilterTestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      // Flyway needs two connections at once at start; a short wait keeps the test quick.
      "spring.datasource.hikari.maximum-pool-size=" + FullPoolTest.POOL_SIZE,
      "spring.datasource.hikari.connection-timeout=1000"
    })
@ExtendWith(OutputCaptureExtension.class)
class FullPoolTest {
  static final int POOL_SIZE = 3;

  private static final String WARNING = "Could not begin the transaction of an idempotent request";

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired DataSource dataSource;

  @Test
  void aFullPoolIsOneWarningPerIntervalAndA503PerRequest(CapturedOutput output) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    List<HttpResponse<String>> answers = new ArrayList<>();
    List<Connection> held = new ArrayList<>();
    try {
      while (held.size() < POOL_SIZE) {
        held.add(dataSource.getConnection());
      }
      for (int i = 0; i < 6; i++) {
        HttpRequest request =
            HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/api/effects/full-" + i))
                .header("Content-Type", "application/json")
                .header("X-Client", "client-" + UUID.randomUUID())
                .header("Idempotency-Key", "k-" + i)
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build();
        answers.add(http.send(request, HttpResponse.BodyHandlers.ofString()));
      }
    } finally {
      for (Connection connection : held) {
        connection.close();
      }
    }
    assertThat(answers)
        .allSatisfy(
            answer -> {
              assertThat(answer.statusCode()).isEqualTo(503);
              assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
              assertThat(answer.body()).contains("service-unavailable");
            });
    String log = output.getAll();
    assertThat(log.lines().filter(line -> line.contains(WARNING))).hasSize(1);
    assertThat(log).doesNotContain("SQLTransientConnectionException:").doesNotContain("\tat ");
  }
}
