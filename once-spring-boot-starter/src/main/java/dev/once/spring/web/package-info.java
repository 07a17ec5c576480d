/**
 * The HTTP idempotency contract for Spring MVC. Public are only the types an application touches:
 * {@link dev.once.spring.web.Idempotent}, {@link dev.once.spring.web.IdempotencyClientResolver},
 * {@link dev.once.spring.web.IdempotentHandlers} and {@link dev.once.spring.web.ClientCaps} (each
 * may be a bean of the application's), and {@link dev.once.spring.web.OnceProblem}; the rest is
 * package-private, its beans defined by the auto-configuration {@link
 * dev.once.spring.web.OnceWebAutoConfiguration}.
 *
 * <p>{@code IdempotencyFilter} takes the requests that {@code IdempotentEndpoints} marks (by
 * method, and by the {@link dev.once.spring.web.Idempotent} annotation of their handler, which
 * {@code MvcIdempotentHandlers} finds, or by path pattern), names their client with an {@link
 * dev.once.spring.web.IdempotencyClientResolver}, checks the key, the body and the client's caps
 * ({@link dev.once.spring.web.ClientCaps}), and hands the request to {@code KeyedHttpRequests},
 * which runs once-core's request loop ({@code IdempotencyEngine.execute}) in Spring transactions:
 * it claims the key, runs the handler and stores its answer in one transaction. {@link
 * dev.once.spring.web.OnceProblem} is the vocabulary of the RFC 9457 problems it answers; {@code
 * OutboxOverloadedAnswer} answers load shedding's refusal.
 *
 * <p>Guarantees: a request takes effect at most once per (client, key). A retry of a completed
 * request with the same fingerprint gets the stored status, body, {@code Content-Type} and {@code
 * Location} with {@code Idempotent-Replayed: true}, and executes nothing; the same key with another
 * request gets 422 {@code idempotency-key-reused}; a duplicate while the first still runs gets 409
 * {@code idempotency-key-in-use} with {@code Retry-After} at once, never waiting on a lock. The key
 * claim, the handler's writes that join the Spring transaction and the stored answer commit
 * together, and the answer is sent only after the commit. Stored are 2xx, 3xx but 304, and the
 * handler's own 4xx except 401, 403, 405, 406, 408, 409, 413, 415, 425 and 429; never a 5xx, an
 * exception, Spring MVC's own refusals or an answer larger than the limit, whose key stays free.
 * The checks before the claim (no client 401, a bad key 400, a body too large 413, malformed or too
 * deep JSON 400, a client over its caps 429) are never stored; a database failure answers 503 with
 * {@code Retry-After}, and the request takes effect at most once (nothing committed, or a retry
 * replays the committed answer).
 *
 * <p>Depends on {@code dev.once.idempotency}, {@code dev.once.json}, {@code dev.once.outbox} (the
 * overload exception), {@code dev.once.failures}, {@code dev.once.log}, {@code
 * dev.once.spring.metrics} and {@code dev.once.spring} (its auto-configuration reads {@code
 * OnceProperties} and is ordered after {@code OnceAutoConfiguration} and the metrics');
 * applications use it. Details: docs/idempotency.md.
 */
package dev.once.spring.web;
