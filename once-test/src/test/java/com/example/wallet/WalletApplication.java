package com.example.wallet;

import dev.once.spring.events.OnceEvent;
import dev.once.spring.events.OnceEvents;
import dev.once.spring.events.OnceListener;
import dev.once.spring.web.IdempotencyClientResolver;
import dev.once.spring.web.Idempotent;
import java.math.BigDecimal;
import java.net.URI;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** A wallet service: an idempotent deposit that publishes an event, and its consumer. */
@SpringBootApplication
public class WalletApplication {

  /** Stands in for your authentication: Once scopes every key to the client it names. */
  @Bean
  IdempotencyClientResolver clients() {
    return request -> Optional.ofNullable(request.getHeader("X-Wallet-Owner"));
  }

  record DepositRequest(BigDecimal amount) {}

  record Deposit(UUID id, String wallet, BigDecimal amount) {}

  @OnceEvent(name = "deposit.made")
  record DepositMade(UUID depositId, String wallet, BigDecimal amount) {}

  @RestController
  static class Deposits {
    private final JdbcTemplate jdbc;
    private final OnceEvents events;

    Deposits(JdbcTemplate jdbc, OnceEvents events) {
      this.jdbc = jdbc;
      this.events = events;
    }

    @Idempotent // the row, the event and the answer commit together, once per key
    @PostMapping("/wallets/{wallet}/deposits")
    ResponseEntity<Deposit> deposit(@PathVariable String wallet, @RequestBody DepositRequest in) {
      Deposit deposit = new Deposit(UUID.randomUUID(), wallet, in.amount());
      jdbc.update(
          "INSERT INTO deposit (id, wallet, amount) VALUES (?, ?, ?)",
          deposit.id(),
          wallet,
          deposit.amount());
      events.publish(wallet, new DepositMade(deposit.id(), wallet, deposit.amount()));
      return ResponseEntity.created(URI.create("/wallets/" + wallet + "/deposits/" + deposit.id()))
          .body(deposit);
    }
  }

  @Component
  static class LoyaltyPoints {
    private final JdbcTemplate jdbc;

    LoyaltyPoints(JdbcTemplate jdbc) {
      this.jdbc = jdbc;
    }

    @OnceListener(consumer = "loyalty-points") // once per event, with its inbox record
    void on(DepositMade event) {
      jdbc.update(
          "INSERT INTO loyalty_points (wallet, points) VALUES (?, ?)",
          event.wallet(),
          event.amount().intValue());
    }
  }
}
