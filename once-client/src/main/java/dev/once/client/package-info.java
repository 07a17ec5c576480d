/**
 * A plain-Java HTTP client that makes retries safe for requests guarded by an {@code
 * Idempotency-Key} (JDK {@link java.net.http.HttpClient}, no dependencies).
 *
 * <p>Guarantees of every call made through {@link dev.once.client.OnceClient} (or {@link
 * dev.once.client.Retrier}, which the Spring {@code RestClient} interceptor shares):
 *
 * <ul>
 *   <li>One key per call, the same on every attempt: the caller's, or a fresh UUIDv7 (RFC 9562) for
 *       a method that is not safe; a safe method (GET, HEAD) goes without one unless given.
 *   <li>A request without a key whose method is not safe is sent once and never retried.
 *   <li>Retried: connection errors and time-outs, 408, 425, 429, 5xx, and a 409 that says the key
 *       is in use (problem type {@code …/idempotency-key-in-use} or a {@code Retry-After}). Never
 *       retried: any other 4xx, 422 included; a 422 {@code …/idempotency-key-reused} throws {@link
 *       dev.once.client.IdempotencyKeyReusedException}.
 *   <li>Waits: exponential backoff with full jitter, or the {@code Retry-After} of a 409, 429 or
 *       503 (delta-seconds or HTTP-date). No attempt starts, and no wait ends, after the call's
 *       total deadline; each attempt's time-out is capped by what is left of it. A wait that would
 *       end past the deadline gives up at once ({@link dev.once.client.GaveUpException}).
 *   <li>An interrupt stops the call ({@link dev.once.client.CallInterruptedException}) and leaves
 *       the thread's interrupt flag set.
 *   <li>Nothing is logged. Exceptions and {@link dev.once.client.ClientListener} events never carry
 *       a body; listener events do not carry the key.
 * </ul>
 *
 * <p>The only hand-written parsing is the problem {@code type} member of an {@code
 * application/problem+json} answer ({@link dev.once.client.ProblemType}) and {@code Retry-After}:
 * the module has no JSON library by design, so that any service can use it.
 */
package dev.once.client;
