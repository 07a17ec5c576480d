package com.example.wallet;

import static dev.once.test.OnceAssertions.assertThatConsumer;
import static dev.once.test.OnceAssertions.assertThatEndpoint;

import dev.once.inbox.InboxMessage;
import dev.once.test.faults.OnceTestFaults;
import dev.once.test.http.HttpTarget;
import dev.once.test.http.TestRequest;
import dev.once.test.spring.OnceTestBeans;
import dev.once.test.spring.TestPostgresProperties;
import java.math.BigDecimal;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest(
    classes = WalletApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "once.outbox.relay.auto-start=false") // the test delivers the events itself
@Import(OnceTestFaults.class) // the faults the kit injects: fail after the handler, lose the answer
@Timeout(120)
class WalletIdempotencyTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    TestPostgresProperties.registerDataSource(registry); // one real PostgreSQL per test JVM
  }

  @LocalServerPort int port;
  @Autowired JdbcTemplate jdbc;
  @Autowired ApplicationContext context;

  @Test
  void aDepositIsMadeOncePerKey() {
    String wallet = "w-" + UUID.randomUUID();
    assertThatEndpoint(HttpTarget.baseUrl("http://localhost:" + port))
        .withRequest(
            TestRequest.post("/wallets/" + wallet + "/deposits")
                .header("X-Wallet-Owner", "alice")
                .json("{\"amount\": 12.50}"))
        .isIdempotent(
            () ->
                jdbc.queryForObject(
                    "SELECT coalesce(sum(amount), 0) FROM deposit WHERE wallet = ?",
                    BigDecimal.class,
                    wallet));
  }

  @Test
  void pointsAreAwardedOncePerDeposit() {
    String wallet = "w-" + UUID.randomUUID();
    InboxMessage depositMade =
        new InboxMessage(
            UUID.randomUUID(),
            "deposit.made",
            wallet,
            "{\"depositId\": \""
                + UUID.randomUUID()
                + "\", \"wallet\": \""
                + wallet
                + "\","
                + " \"amount\": 10}");
    assertThatConsumer(OnceTestBeans.consumer(context, "loyalty-points"))
        .isIdempotent(
            depositMade,
            () ->
                jdbc.queryForObject(
                    "SELECT coalesce(sum(points), 0) FROM loyalty_points WHERE wallet = ?",
                    Long.class,
                    wallet));
  }
}
