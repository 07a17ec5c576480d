package com.example.wallet;

import dev.once.spring.web.IdempotencyClientResolver;
import java.util.Optional;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** A wallet service: an idempotent credit that publishes an event, and a listener of it. */
@SpringBootApplication
public class WalletApplication {

  public static void main(String[] args) {
    SpringApplication.run(WalletApplication.class, args);
  }

  /** Stands in for your authentication: Once scopes every key to the client it names. */
  @Bean
  IdempotencyClientResolver walletOwners() {
    return request -> Optional.ofNullable(request.getHeader("X-Wallet-Owner"));
  }
}
