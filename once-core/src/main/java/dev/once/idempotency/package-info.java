/**
 * The idempotency engine: the rules of the {@code Idempotency-Key} contract, applied inside the
 * caller's database transaction. {@link dev.once.idempotency.IdempotencyEngine#claim} takes an
 * {@link dev.once.idempotency.IdempotencyScope} (authenticated client and {@link
 * dev.once.idempotency.IdempotencyKey}) and the request's {@link dev.once.idempotency.Fingerprint}
 * and answers one {@link dev.once.idempotency.ClaimResult}: {@code Acquired} (execute), {@code
 * Replay} (send the {@link dev.once.idempotency.StoredResponse}), {@code Mismatch} or {@code
 * InUse}; {@link dev.once.idempotency.IdempotencyEngine#complete} stores the answer in the same
 * transaction. {@link dev.once.idempotency.IdempotencyEngine#execute} is the whole request loop in
 * one call (claim, handler, answer, commit, and every exceptional path), returning an {@link
 * dev.once.idempotency.IdempotentOutcome}; {@link dev.once.idempotency.IdempotentTransactions} lets
 * a framework's transaction manager run its transactions. {@link
 * dev.once.idempotency.IdempotencyStore} is the storage underneath.
 *
 * <p>Guarantees, given that the claim, the business writes and the completion share one
 * transaction:
 *
 * <ul>
 *   <li>a key takes effect at most once per (client, key); two clients' keys never meet;
 *   <li>a retry of a completed key with the same fingerprint is answered with the stored status,
 *       body, {@code Content-Type} and {@code Location}, without executing;
 *   <li>the same key with a different request (method, path with query, body; a JSON body in its
 *       canonical form, numbers by exact value) is a {@code Mismatch}: nothing executes (the
 *       starter answers 422 {@code idempotency-key-reused});
 *   <li>a concurrent duplicate gets {@code InUse} at once, never waiting on a lock (the starter
 *       answers 409 {@code idempotency-key-in-use} with {@code Retry-After});
 *   <li>the claim writes nothing and the completion writes the key's one row, so a rollback or a
 *       crash at any instant leaves no trace and no key stuck in use; a lease bounds how long a
 *       hung request keeps its key in use (the whole transaction on PostgreSQL 17 and later).
 * </ul>
 *
 * <p>Expiry is the database's clock: a key counts as new once its retention (24 h by default) has
 * passed. Depends on {@code dev.once.json} (canonical JSON for fingerprints), {@code
 * dev.once.failures} and {@code dev.once.log} (the loop's classification and throttled logging of
 * database failures), the JDK, JDBC and SLF4J; {@code dev.once.postgres} implements its store, the
 * starter's filter drives it. Details: docs/idempotency.md.
 */
package dev.once.idempotency;
