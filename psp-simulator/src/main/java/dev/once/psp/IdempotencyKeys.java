package dev.once.psp;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The idempotency keys of one endpoint. A key is claimed by the first request that carries it (in
 * progress), then either completed with the answer to replay or released so that a retry executes
 * anew (a fault answered before anything was applied).
 */
final class IdempotencyKeys {

  enum Kind {
    /** The key is new: the caller executes the request and must complete or release the key. */
    CLAIMED,
    /** Same key, same request, answered: send {@link Claim#answer()} again. */
    REPLAY,
    /** Same key, a different request. */
    REUSED,
    /** Same key, same request, the first one still being processed. */
    IN_USE
  }

  record Claim(Kind kind, Answer answer) {}

  private static final Claim CLAIMED = new Claim(Kind.CLAIMED, null);
  private static final Claim REUSED = new Claim(Kind.REUSED, null);
  private static final Claim IN_USE = new Claim(Kind.IN_USE, null);

  private static final class Entry {
    final Object request;
    volatile Answer answer;

    Entry(Object request) {
      this.request = request;
    }
  }

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

  /** Claims {@code key} for {@code request}, whose {@code equals} compares parsed values. */
  Claim claim(String key, Object request) {
    Entry existing = entries.putIfAbsent(key, new Entry(request));
    if (existing == null) {
      return CLAIMED;
    }
    if (!existing.request.equals(request)) {
      return REUSED;
    }
    Answer answer = existing.answer;
    return answer == null ? IN_USE : new Claim(Kind.REPLAY, answer);
  }

  /** Stores the answer of a claimed key; from now on the key replays it. */
  void complete(String key, Answer answer) {
    entries.get(key).answer = answer;
  }

  /**
   * Stores a key answered before (replayed from the journal).
   *
   * @throws IllegalArgumentException if the key is already stored
   */
  void restore(String key, Object request, Answer answer) {
    Entry entry = new Entry(request);
    entry.answer = answer;
    if (entries.putIfAbsent(key, entry) != null) {
      throw new IllegalArgumentException("idempotency key " + key + " is applied twice");
    }
  }

  /** Forgets a claimed key whose request applied nothing. */
  void release(String key) {
    entries.remove(key);
  }
}
