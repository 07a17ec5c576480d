package dev.once.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at one claimed row: runs its handler with no connection held, maps the outcome to a
 * compare-and-set on the store, then tells the listener. Never throws: a handler's exception or
 * error is a retry, a lost claim is reported, a database failure leaves the row to its lease (it is
 * claimed again once the lease runs out). Thread-safe; called on worker threads concurrently.
 */
final class Attempts {
  private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

  private final OutboxStore store;
  private final Map<String, MessageHandler> handlers;
  private final Map<String, RetryPolicy> policies;
  private final RetryPolicy defaultPolicy;
  private final Clock clock;
  private final RelayListener listener;
  private final RelayFailures failures;

  Attempts(OutboxRelay.Builder settings, RelayFailures failures) {
    this.store = settings.store;
    this.handlers = Map.copyOf(settings.handlers);
    this.policies = Map.copyOf(settings.policies);
    this.defaultPolicy = settings.defaultRetryPolicy;
    this.clock = settings.clock;
    this.listener = settings.listener;
    this.failures = failures;
  }

  /** Makes the attempt and records its outcome. */
  void attempt(OutboxRecord row, UUID claimId) {
    try {
      RetryPolicy policy = policies.getOrDefault(row.type(), defaultPolicy);
      if (row.attempt() > policy.maxAttempts()) {
        // Every earlier claim of this row ended without an outcome (the process died or the lease
        // ran out in its handler): calling the handler again could repeat that for ever.
        bury(
            row,
            claimId,
            "gave up: "
                + (row.attempt() - 1)
                + " attempts ended without an outcome (maxAttempts "
                + policy.maxAttempts()
                + ")");
        return;
      }
      Delivery outcome = call(row);
      if (outcome instanceof Delivery.Dead dead) {
        bury(row, claimId, dead.reason());
      } else if (outcome instanceof Delivery.Retry retry) {
        if (row.attempt() >= policy.maxAttempts()) {
          bury(row, claimId, "attempt " + row.attempt() + " was the last: " + retry.reason());
        } else {
          retryLater(row, claimId, policy, retry.reason());
        }
      } else {
        complete(row, claimId);
      }
    } catch (RuntimeException e) {
      // The store failed to record the outcome; the row keeps its lease and is tried again.
      failures.report("record the outcome of an outbox row", e);
    }
  }

  private Delivery call(OutboxRecord row) {
    try {
      Delivery outcome = handlers.get(row.type()).handle(row);
      return outcome != null ? outcome : Delivery.retry("the handler returned null");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Delivery.retry("interrupted: the relay is closing");
    } catch (Throwable e) {
      // A handler's RuntimeException or Error must not kill the worker; its message may quote the
      // payload, so only its type is kept.
      return Delivery.retry(e.getClass().getName());
    }
  }

  private void complete(OutboxRecord row, UUID claimId) {
    Instant now = clock.instant();
    if (store.complete(row.id(), claimId, now)) {
      notify(() -> listener.delivered(row, Duration.between(row.createdAt(), now)));
    } else {
      claimLost(row);
    }
  }

  private void retryLater(OutboxRecord row, UUID claimId, RetryPolicy policy, String reason) {
    Instant next = clock.instant().plus(policy.delay(row.attempt(), ThreadLocalRandom.current()));
    if (store.retryLater(row.id(), claimId, next, reason)) {
      notify(() -> listener.retried(row, reason, next));
    } else {
      claimLost(row);
    }
  }

  private void bury(OutboxRecord row, UUID claimId, String reason) {
    if (store.bury(row.id(), claimId, reason, clock.instant())) {
      LOG.warn(
          "Outbox row {} of type {} is dead after {} attempt(s); later rows of its aggregate wait"
              + " until an operator requeues it.",
          row.id(),
          row.type(),
          row.attempt());
      notify(() -> listener.dead(row, reason));
    } else {
      claimLost(row);
    }
  }

  private void claimLost(OutboxRecord row) {
    LOG.warn(
        "Outbox row {} of type {} was handled, but its claim had been lost (the lease ran out and"
            + " another relay took the row): the outcome is discarded and the row is handled again."
            + " Make the relay's lease longer than the slowest handler.",
        row.id(),
        row.type());
    notify(() -> listener.claimLost(row));
  }

  private void notify(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.warn("An outbox RelayListener threw; ignored.", e);
    }
  }
}
