package dev.once.outbox;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Validates the operators' arguments and delegates to the store. Thread-safe. */
final class DefaultOutboxAdmin implements OutboxAdmin {
  static final int MAX_LIMIT = 1000;

  private final OutboxStore store;

  DefaultOutboxAdmin(OutboxStore store) {
    this.store = store;
  }

  @Override
  public List<DeadMessage> dead(long afterId, int limit) {
    if (afterId < 0) {
      throw new IllegalArgumentException("afterId must be at least 0, but was " + afterId);
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", but was " + limit);
    }
    return store.dead(afterId, limit);
  }

  @Override
  public boolean requeue(long id) {
    return store.requeue(id);
  }

  @Override
  public boolean discard(long id) {
    return id >= 1 && store.discard(id);
  }

  @Override
  public boolean pause(String type, String pausedBy, String reason) {
    Texts.checked("type", type, MAX_TYPE_LENGTH, false);
    Texts.checked("pausedBy", pausedBy, MAX_PAUSED_BY_LENGTH, false);
    return store.pause(type, pausedBy, Texts.checked("reason", reason, MAX_REASON_LENGTH, true));
  }

  @Override
  public boolean resume(String type) {
    Texts.checked("type", type, MAX_TYPE_LENGTH, false);
    return store.resume(type);
  }

  @Override
  public List<PausedType> paused() {
    return store.paused();
  }

  @Override
  public Replay replay(ReplayRequest request) {
    Replay replay = store.replay(request, MAX_REPLAY_ROWS);
    if (replay.repeated() && !request.sameAs(replay)) {
      throw new IllegalStateException(
          "replay id " + request.id() + " was used for another replay: choose a new id");
    }
    return replay;
  }

  @Override
  public List<Replay> replays(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", but was " + limit);
    }
    return store.replays(limit);
  }

  @Override
  public OutboxStats stats() {
    return store.stats();
  }

  @Override
  public List<TypeCounts> countsByType() {
    return store.countsByType();
  }

  @Override
  public Optional<String> deadPayload(long id) {
    return id < 1 ? Optional.empty() : store.deadPayload(id);
  }

  @Override
  public Duration oldestClaimableAge() {
    return store.oldestClaimableAge();
  }
}
