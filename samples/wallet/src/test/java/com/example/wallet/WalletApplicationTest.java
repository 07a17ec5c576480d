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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** once-test's proof of the wallet's endpoint and listener, against real PostgreSQL. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.outbox.relay.auto-start=false" // the test delivers the events itself
    })
@Import(OnceTestFaults.class) // the faults the kit injects: fail after the handler, lose the answer
@Timeout(120)
class WalletApplicationTest {

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    TestPostgresProperties.registerDataSource(registry); // one real PostgreSQL per test JVM
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired ApplicationContext context;

  @Test
  void aCreditIsAppliedOncePerKey() {
    String wallet = "w-" + UUID.randomUUID();
    assertThatEndpoint(HttpTarget.baseUrl("http://localhost:" + port))
        .withRequest(
            TestRequest.post("/wallets/" + wallet + "/credits")
                .header("X-Wallet-Owner", "alice")
                .json("{\"amount\": 12.50}"))
        .isIdempotent(
            () ->
                jdbc.sql("SELECT coalesce(sum(balance), 0) FROM wallet WHERE id = ?")
                    .param(wallet)
                    .query(BigDecimal.class)
                    .single());
  }

  @Test
  void aCreditIsRecordedOncePerEvent() {
    String wallet = "w-" + UUID.randomUUID();
    InboxMessage credited =
        new InboxMessage(
            UUID.randomUUID(),
            "wallet.credited",
            wallet,
            "{\"creditId\": \""
                + UUID.randomUUID()
                + "\", \"wallet\": \""
                + wallet
                + "\", \"amount\": 10}");
    assertThatConsumer(OnceTestBeans.consumer(context, "credit-history"))
        .isIdempotent(
            credited,
            () ->
                jdbc.sql("SELECT count(*) FROM credit_history WHERE wallet = ?")
                    .param(wallet)
                    .query(Long.class)
                    .single());
  }
}
