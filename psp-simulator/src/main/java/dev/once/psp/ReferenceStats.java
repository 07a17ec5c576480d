package dev.once.psp;

/**
 * The counters of one merchant reference (a charge's or a refund's {@code reference}).
 *
 * @param reference the merchant reference
 * @param requests requests that carried it and passed validation, under any idempotency key
 * @param effects charges or refunds applied for it; more than 1 means the merchant sent one payment
 *     twice under two keys
 * @param status {@code succeeded} or {@code declined}: the outcome of the latest effect; {@code
 *     null} if none was applied
 */
public record ReferenceStats(String reference, long requests, long effects, String status) {}
