package com.example.wallet;

import dev.once.spring.web.Idempotent;
import java.math.BigDecimal;
import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class WalletController {
  private final Wallets wallets;

  WalletController(Wallets wallets) {
    this.wallets = wallets;
  }

  record CreditRequest(BigDecimal amount) {}

  @Idempotent // a POST here needs an Idempotency-Key
  @PostMapping("/wallets/{wallet}/credits")
  ResponseEntity<Credit> credit(@PathVariable String wallet, @RequestBody CreditRequest request) {
    Credit credit = wallets.credit(wallet, request.amount());
    return ResponseEntity.created(URI.create("/wallets/" + wallet + "/credits/" + credit.id()))
        .body(credit);
  }
}
