package com.example.wallet;

import java.math.BigDecimal;
import java.util.UUID;

/** A credit to a wallet, and the wallet's balance after it. */
record Credit(UUID id, String wallet, BigDecimal amount, BigDecimal balance) {}
