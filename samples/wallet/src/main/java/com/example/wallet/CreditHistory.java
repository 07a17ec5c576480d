package com.example.wallet;

import dev.once.spring.events.OnceListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

@Component
class CreditHistory {
  private final JdbcClient jdbc;

  CreditHistory(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  @OnceListener(
      consumer = "credit-history") // once per event, in the transaction of its inbox record
  void on(WalletCredited event) {
    jdbc.sql("INSERT INTO credit_history (credit_id, wallet, amount) VALUES (?, ?, ?)")
        .params(event.creditId(), event.wallet(), event.amount())
        .update();
  }
}
