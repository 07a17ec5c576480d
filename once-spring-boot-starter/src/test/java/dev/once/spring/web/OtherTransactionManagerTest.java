package dev.once.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.ResourceTransactionManager;

/**
 * With a transaction manager that is not Spring's JDBC one, the filter cannot send the answer with
 * the COMMIT: it stores the answer, then lets the transaction manager commit. The contract is the
 * same; these tests fail if that path forgets the answer or commits a request that lost its key.
 */
@SpringBootTest(
    classes = {FilterTestApplication.class, OtherTransactionManagerTest.Wrapped.class},
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OtherTransactionManagerTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    FilterTestApplication.database(registry);
  }

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;
  @Autowired PlatformTransactionManager transactions;

  private final String client = "client-" + UUID.randomUUID();

  /** A transaction manager of another kind, managing the same DataSource. */
  @TestConfiguration(proxyBeanMethods = false)
  static class Wrapped {
    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
      return new Delegating(new JdbcTransactionManager(dataSource));
    }
  }

  /** Delegates everything; only its type differs from Spring's JDBC transaction managers. */
  record Delegating(DataSourceTransactionManager delegate) implements ResourceTransactionManager {
    @Override
    public TransactionStatus getTransaction(TransactionDefinition definition) {
      return delegate.getTransaction(definition);
    }

    @Override
    public void commit(TransactionStatus status) {
      delegate.commit(status);
    }

    @Override
    public void rollback(TransactionStatus status) {
      delegate.rollback(status);
    }

    @Override
    public Object getResourceFactory() {
      return delegate.getResourceFactory();
    }
  }

  @Test
  void aNewKeyExecutesOnceAndItsRetryReplays() {
    assertThat(transactions).isInstanceOf(Delegating.class);
    String tag = tag();

    HttpResponse<String> first = send("/api/effects/" + tag, "k-other-1");
    HttpResponse<String> retry = send("/api/effects/" + tag, "k-other-1");

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.body()).isEqualTo(first.body());
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isEqualTo(1);
  }

  @Test
  void aRefusalIsStoredWithoutTheHandlersWrites() {
    String tag = tag();

    HttpResponse<String> refused = send("/api/synchronized/" + tag + "?status=422", "k-other-2");
    HttpResponse<String> retry = send("/api/synchronized/" + tag + "?status=422", "k-other-2");

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(retry.statusCode()).isEqualTo(422);
    assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isZero();
  }

  @Test
  void aRequestThatLostItsKeyLeavesNoTraceAndGetsTheWinnersAnswer() {
    String tag = tag();

    HttpResponse<String> answer = send("/api/raced/" + tag + "?status=201", "k-other-3");

    assertThat(answer.statusCode()).isEqualTo(201);
    assertThat(answer.body()).isEqualTo("{\"winner\":true}");
    assertThat(answer.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    assertThat(effects(tag)).isZero();
    assertThat(effects(tag + "-before-commit")).isZero();
  }

  private HttpResponse<String> send(String path, String key) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .header("Content-Type", "application/json")
            .header("X-Client", client)
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private long effects(String tag) {
    return jdbc.sql("SELECT count(*) FROM effect WHERE tag = ?")
        .param(tag)
        .query(Long.class)
        .single();
  }

  private static String tag() {
    return "t" + UUID.randomUUID().toString().replace("-", "");
  }
}
