/**
 * Once's metrics. {@link dev.once.spring.metrics.IdempotencyMetrics} learns how each idempotent
 * request ended ({@link dev.once.spring.metrics.IdempotencyMetrics.Outcome}); with Micrometer and a
 * {@code MeterRegistry} the starter counts the outcomes as {@code once.idempotency.requests}
 * ({@code MicrometerIdempotencyMetrics}), the relay's outcomes tagged {@code type} ({@code
 * MicrometerRelayListener}), the outbox's backlog, oldest due age and dead rows as gauges ({@code
 * OutboxGauges}), the relay's own counters ({@code RelayMeters}) and the inbox's skipped
 * redeliveries tagged {@code consumer} ({@code MicrometerInboxDuplicates}). Another sink implements
 * {@link dev.once.spring.metrics.IdempotencyMetrics} as a bean. Public is only {@link
 * dev.once.spring.metrics.IdempotencyMetrics}; the meter names are the contract, and the Micrometer
 * types are package-private, their beans defined by the auto-configurations {@link
 * dev.once.spring.metrics.OnceMetricsAutoConfiguration} and {@link
 * dev.once.spring.metrics.OnceRelayMetricsAutoConfiguration}.
 *
 * <p>What a scrape costs: nothing in the database. The gauges are read by one query on a background
 * thread every 5 s, never on a scrape, and the relay's counters come from memory; tags are bounded
 * (an outcome, a registered message type, a consumer's name). Hooks are called on request and relay
 * threads and are fast and thread-safe.
 *
 * <p>Depends on {@code dev.once.outbox}, {@code dev.once.inbox}, {@code dev.once.spring.inbox},
 * {@code dev.once.spring.outbox} (the relay's auto-configuration, which the relay's metrics come
 * after) and {@code dev.once.spring.internal}; {@code dev.once.spring.web} uses it.
 */
package dev.once.spring.metrics;
