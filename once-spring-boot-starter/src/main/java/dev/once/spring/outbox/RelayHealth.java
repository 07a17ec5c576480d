package dev.once.spring.outbox;

import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxRelay;
import dev.once.outbox.OutboxStats;
import dev.once.outbox.PausedType;
import dev.once.outbox.RelayStats;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The relay's health ({@code once.outbox.relay.health.*}): DOWN when its coordinator is not running
 * (not started, closed, or its thread died) or when the oldest due row has waited longer than
 * {@code max-due-age} (the relay does not keep up, or a handler's receiver is down); UP otherwise,
 * with the backlog, the oldest due row's age, the dead rows, the busy workers and the paused types
 * (since when, by whom, why) as details; a paused type is an operator's decision, not a fault, so
 * it leaves the status as it is. The outbox is read when the health is asked for (three index reads
 * and the pause table); a database failure is DOWN with its exception class.
 */
final class RelayHealth implements HealthIndicator {
  private final OutboxRelay relay;
  private final OutboxAdmin admin;
  private final Duration maxDueAge;

  RelayHealth(OutboxRelay relay, OutboxAdmin admin, Duration maxDueAge) {
    this.relay = Objects.requireNonNull(relay, "relay");
    this.admin = Objects.requireNonNull(admin, "admin");
    this.maxDueAge = Objects.requireNonNull(maxDueAge, "maxDueAge");
  }

  @Override
  public Health health() {
    RelayStats relayStats = relay.stats();
    Health.Builder health = relayStats.running() ? Health.up() : Health.down();
    health
        .withDetail("running", relayStats.running())
        .withDetail("busyWorkers", relayStats.busyWorkers())
        .withDetail("workers", relayStats.workers())
        .withDetail("clockSkew", relay.clockSkew().toString());
    OutboxStats stats;
    List<PausedType> paused;
    try {
      stats = admin.stats();
      paused = admin.paused();
    } catch (RuntimeException e) {
      return health.down().withDetail("error", e.getClass().getName()).build();
    }
    health
        .withDetail("backlog", stats.backlog())
        .withDetail("oldestDueAge", stats.oldestDueAge().toString())
        .withDetail("maxDueAge", maxDueAge.toString())
        .withDetail("dead", stats.dead());
    if (!paused.isEmpty()) {
      Map<String, Object> byType = new LinkedHashMap<>();
      for (PausedType p : paused) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("since", p.since().toString());
        detail.put("by", p.pausedBy());
        if (p.reason() != null) {
          detail.put("reason", p.reason());
        }
        byType.put(p.type(), detail);
      }
      health.withDetail("paused", byType);
    }
    if (stats.oldestDueAge().compareTo(maxDueAge) > 0) {
      health.down();
    }
    return health.build();
  }
}
