package com.example.wallet;

import dev.once.spring.events.OnceEvents;
import java.math.BigDecimal;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class Wallets {
  private final JdbcClient jdbc;
  private final OnceEvents events;

  Wallets(JdbcClient jdbc, OnceEvents events) {
    this.jdbc = jdbc;
    this.events = events;
  }

  @Transactional // joins the request's transaction
  Credit credit(String wallet, BigDecimal amount) {
    BigDecimal balance =
        jdbc.sql(
                """
                INSERT INTO wallet (id, balance) VALUES (:wallet, :amount)
                ON CONFLICT (id) DO UPDATE SET balance = wallet.balance + EXCLUDED.balance
                RETURNING balance""")
            .param("wallet", wallet)
            .param("amount", amount)
            .query(BigDecimal.class)
            .single();
    UUID id = UUID.randomUUID();
    events.publish(wallet, new WalletCredited(id, wallet, amount));
    return new Credit(
        id, wallet, amount, balance); // the balance, the event and the answer commit together
  }
}
