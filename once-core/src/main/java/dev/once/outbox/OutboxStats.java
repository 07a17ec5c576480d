package dev.once.outbox;

import java.time.Duration;

/**
 * A snapshot of the outbox, for metrics.
 *
 * @param backlog rows not yet delivered and not dead (due or waiting for a retry)
 * @param oldestDueAge how long the oldest due row has waited past its due time; zero if none
 * @param dead rows in the {@code dead} state
 */
public record OutboxStats(long backlog, Duration oldestDueAge, long dead) {}
