/**
 * A payment service provider simulator to test a merchant's retries against: {@code POST
 * /v1/charges} and {@code POST /v1/refunds} with idempotency keys, deterministic decline rules (a
 * charge of an amount ending in {@code .51}, a refund ending in {@code .52}), injectable {@link
 * dev.once.psp.Faults} (errors, time-outs, lost answers, latency) and effect counters per merchant
 * reference ({@link dev.once.psp.Stats}, {@link dev.once.psp.ReferenceStats}). {@link
 * dev.once.psp.PspSimulator} runs it standalone ({@code main}) or embedded ({@code start}, with
 * {@link dev.once.psp.PspSettings}); the HTTP API is in the module's README.
 *
 * <p>What it promises a merchant: a key is applied at most once per endpoint; the same key with the
 * same request (compared by parsed value) replays the first answer byte for byte with {@code
 * Idempotent-Replayed: true}; with another request it answers 422 {@code idempotency-key-reused};
 * while the first is still processed, 409 {@code idempotency-key-in-use} with {@code Retry-After:
 * 1}. A request rejected before execution, and an error or time-out fault, applies and stores
 * nothing, so a retry executes anew; a lost answer is applied and stored, so a retry replays it.
 * Refunds of one charge are serialized and never exceed it. Effects are never deduplicated by
 * reference: a payment sent under two keys counts two effects, which is what the counters expose.
 * Faults are drawn from a seeded generator: the same seed and the same requests give the same
 * faults.
 *
 * <p>In memory for the life of the process, or, with a journal, written ahead to a file before
 * anything is applied or answered, so a restart after {@code kill -9} forgets nothing it answered
 * (not synced to disk: a machine crash may lose the latest records). Built on the JDK's HTTP server
 * and Jackson; depends on no other module of Once. The shop embeds it when no provider URL is set.
 */
package dev.once.psp;
