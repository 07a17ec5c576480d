package dev.once.spring.outbox.shedding;

import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRecord;
import dev.once.spring.outbox.OutboxHandler;
import dev.once.spring.outbox.TransactionalOutbox;
import dev.once.spring.web.IdempotencyClientResolver;
import dev.once.testing.TestDatabase;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An application whose POST handlers write a business row and append a {@value #CHARGE} row, and
 * whose relay handles it by appending a {@value #CHARGED} row in a transaction of its own (as the
 * shop's provider handler publishes an event): the relay's own appends. It maps no exception
 * itself, as a library user without an exception handler of their own: the starter answers.
 */
@SpringBootApplication
public class LoadSheddingTestApplication {
  static final String CHARGE = "test.charge";
  static final String CHARGED = "test.charged";

  /** A database of its own on the test JVM's server: the measure reads the whole outbox table. */
  static void freshDatabase(DynamicPropertyRegistry registry) {
    String name = "shedding_" + UUID.randomUUID().toString().replace("-", "");
    try (Connection c = TestDatabase.dataSource().getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    String url = TestDatabase.jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?");
    registry.add("spring.datasource.url", () -> url);
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("spring.datasource.password", () -> "postgres");
  }

  /** Stands in for the application's authentication: the X-Client header names the client. */
  @Bean
  FilterRegistrationBean<OncePerRequestFilter> fakeAuthentication() {
    FilterRegistrationBean<OncePerRequestFilter> registration =
        new FilterRegistrationBean<>(
            new OncePerRequestFilter() {
              @Override
              protected void doFilterInternal(
                  HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                  throws ServletException, IOException {
                String client = request.getHeader("X-Client");
                if (client != null) {
                  request.setAttribute(IdempotencyClientResolver.CLIENT_ID_ATTRIBUTE, client);
                }
                chain.doFilter(request, response);
              }
            });
    registration.setOrder(-10);
    return registration;
  }

  /** Handles a charge by appending its outcome, in its own transaction, through the outbox. */
  @Bean
  OutboxHandler chargeHandler(TransactionalOutbox outbox, PlatformTransactionManager transactions) {
    TransactionTemplate template = new TransactionTemplate(transactions);
    return new OutboxHandler() {
      @Override
      public String type() {
        return CHARGE;
      }

      @Override
      public Delivery handle(OutboxRecord message) {
        template.executeWithoutResult(
            status ->
                outbox.append(
                    new OutboxMessage(CHARGED, message.aggregateId(), message.payloadJson())));
        return Delivery.done();
      }
    };
  }

  @Bean
  OutboxHandler chargedHandler() {
    return new OutboxHandler() {
      @Override
      public String type() {
        return CHARGED;
      }

      @Override
      public Delivery handle(OutboxRecord message) {
        return Delivery.done();
      }
    };
  }

  @RestController
  static class Orders {
    private final JdbcClient jdbc;
    private final TransactionalOutbox outbox;
    private final TransactionTemplate transactions;

    Orders(JdbcClient jdbc, TransactionalOutbox outbox, PlatformTransactionManager transactions) {
      this.jdbc = jdbc;
      this.outbox = outbox;
      this.transactions = new TransactionTemplate(transactions);
    }

    /** Idempotent (under /api/**): runs in the filter's transaction. */
    @PostMapping("/api/orders/{tag}")
    ResponseEntity<String> place(@PathVariable String tag) {
      return placed(tag);
    }

    /** Not under /api/**, so not idempotent: its own transaction. */
    @PostMapping("/open/orders/{tag}")
    ResponseEntity<String> placeWithoutKey(@PathVariable String tag) {
      return transactions.execute(status -> placed(tag));
    }

    private ResponseEntity<String> placed(String tag) {
      jdbc.sql("INSERT INTO effect (tag) VALUES (:tag)").param("tag", tag).update();
      outbox.append(new OutboxMessage(CHARGE, tag, "{\"tag\":\"" + tag + "\"}"));
      return ResponseEntity.status(HttpStatus.CREATED).body("{\"tag\":\"" + tag + "\"}");
    }

    @GetMapping("/api/effects/{tag}")
    long count(@PathVariable String tag) {
      return jdbc.sql("SELECT count(*) FROM effect WHERE tag = :tag")
          .param("tag", tag)
          .query(Long.class)
          .single();
    }
  }
}
