package com.example.wallet;

import dev.once.spring.events.OnceEvent;
import java.math.BigDecimal;
import java.util.UUID;

@OnceEvent(name = "wallet.credited", version = 1)
public record WalletCredited(UUID creditId, String wallet, BigDecimal amount) {}
