package dev.once.shop.accounts;

import java.math.BigDecimal;

/**
 * An account of one client.
 *
 * @param id opaque id, {@code acc_...}
 * @param currency ISO 4217 code; every amount on the account is in it
 * @param balance the sum of its operations, never negative
 */
public record Account(String id, String currency, BigDecimal balance) {}
