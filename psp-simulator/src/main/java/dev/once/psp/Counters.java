package dev.once.psp;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@code GET /v1/stats}; per reference, never deduplicated by it. */
final class Counters {
  private final LongAdder requests = new LongAdder();
  private final LongAdder chargesSucceeded = new LongAdder();
  private final LongAdder chargesDeclined = new LongAdder();
  private final LongAdder refundsSucceeded = new LongAdder();
  private final LongAdder refundsDeclined = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder lostAnswers = new LongAdder();
  private final ConcurrentHashMap<String, PerReference> references = new ConcurrentHashMap<>();

  private static final class PerReference {
    final LongAdder requests = new LongAdder();
    long effects;
    String status;
  }

  void request(String reference) {
    requests.increment();
    perReference(reference).requests.increment();
  }

  void charge(String reference, boolean succeeded) {
    (succeeded ? chargesSucceeded : chargesDeclined).increment();
    effect(reference, succeeded);
  }

  void refund(String reference, boolean succeeded) {
    (succeeded ? refundsSucceeded : refundsDeclined).increment();
    effect(reference, succeeded);
  }

  void error() {
    errors.increment();
  }

  void timeout() {
    timeouts.increment();
  }

  void lostAnswer() {
    lostAnswers.increment();
  }

  Stats snapshot() {
    long cs = chargesSucceeded.sum();
    long cd = chargesDeclined.sum();
    long rs = refundsSucceeded.sum();
    long rd = refundsDeclined.sum();
    return new Stats(
        requests.sum(),
        cs,
        cd,
        rs,
        rd,
        cs + cd + rs + rd,
        errors.sum(),
        timeouts.sum(),
        lostAnswers.sum());
  }

  ReferenceStats reference(String reference) {
    PerReference counters = references.get(reference);
    if (counters == null) {
      return new ReferenceStats(reference, 0, 0, null);
    }
    synchronized (counters) {
      return new ReferenceStats(
          reference, counters.requests.sum(), counters.effects, counters.status);
    }
  }

  private void effect(String reference, boolean succeeded) {
    PerReference counters = perReference(reference);
    synchronized (counters) {
      counters.effects++;
      counters.status = succeeded ? "succeeded" : "declined";
    }
  }

  private PerReference perReference(String reference) {
    return references.computeIfAbsent(reference, r -> new PerReference());
  }
}
