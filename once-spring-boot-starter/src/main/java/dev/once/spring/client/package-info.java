/**
 * The client half for Spring's {@code RestClient}: {@link
 * dev.once.spring.client.OnceRetryInterceptor} gives each request an {@code Idempotency-Key} and
 * retries it by once-client's rules ({@link dev.once.client.Retrier}): the same key on every
 * attempt, backoff with full jitter, {@code Retry-After}, a total deadline, never another 4xx. No
 * rule is written here: they all live in once-client, so the JDK client and this interceptor cannot
 * disagree. Nothing here is auto-configured: an application adds the interceptor to the {@code
 * RestClient}s that call idempotent APIs.
 */
package dev.once.spring.client;
