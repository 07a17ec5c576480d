package dev.once.shop.accounts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;

/**
 * A journal row: written once, never changed.
 *
 * @param id opaque id, {@code op_...}
 * @param accountId the account it moved money on
 * @param kind what it records
 * @param amount signed: positive money in, negative money out
 * @param balanceAfter the account's balance right after this row
 * @param reverses the operation it corrects (refunds and reversals only)
 * @param createdAt when it was written
 */
public record Operation(
    String id,
    String accountId,
    OperationKind kind,
    BigDecimal amount,
    BigDecimal balanceAfter,
    Optional<String> reverses,
    Instant createdAt) {}
