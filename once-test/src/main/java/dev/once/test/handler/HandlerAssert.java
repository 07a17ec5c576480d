package dev.once.test.handler;

import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import dev.once.outbox.OutboxRecord;
import dev.once.test.Effect;
import dev.once.test.faults.HandlerFaults;
import dev.once.test.faults.InjectedFault;
import dev.once.test.internal.Probe;
import dev.once.test.internal.Violations;
import java.math.BigDecimal;
import java.sql.Connection;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Proves an outbox handler idempotent: the relay calls it at least once per row, so each message
 * must move the outside effect (a provider's charge) exactly once however often it is called. Each
 * scenario uses a message of its own:
 *
 * <ul>
 *   <li>{@code [first-call-applies]}: the first call returns {@link Delivery#done()} and moves the
 *       effect by some d ≠ 0 (if not, nothing else can be judged and the assertion stops);
 *   <li>{@code [lost-completion]}: a call whose row completion fails (its {@link
 *       Completion#completeIn} throws {@link InjectedFault}: the process crashed before the row was
 *       marked delivered), then the relay's next attempt: together they move the effect by d and
 *       the second returns done;
 *   <li>{@code [called-again]}: a call after the message was done (a relay that lost its lease)
 *       moves the effect by 0.
 * </ul>
 *
 * The completion handed to the handler records whether it was joined and writes nothing. Every
 * check runs; then the assertion fails once, with an {@link AssertionError} starting {@code Handler
 * <type> is not idempotent:} and listing every violation, one per line. The kit assumes nothing
 * else moves the effect while it runs. Not thread-safe; use it on the test's thread.
 */
public final class HandlerAssert {
  private final MessageHandler handler;

  /** Assertions on {@code handler}; see {@link dev.once.test.OnceAssertions}. */
  public HandlerAssert(MessageHandler handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /**
   * Checks every scenario, each with a copy of {@code message} under a new message id ({@link
   * OutboxRecords#of} builds one).
   *
   * @param outsideEffect reads the outside effect (the fake provider's charges)
   */
  public void isIdempotent(OutboxRecord message, Effect outsideEffect) {
    Objects.requireNonNull(message, "message");
    isIdempotent(() -> OutboxRecords.copy(message), outsideEffect);
  }

  /**
   * Checks every scenario, each with a fresh message from {@code messages} (each with a message id
   * of its own, attempt 1).
   *
   * @param outsideEffect reads the outside effect (the fake provider's charges)
   */
  public void isIdempotent(Supplier<OutboxRecord> messages, Effect outsideEffect) {
    Objects.requireNonNull(messages, "messages");
    Probe probe = new Probe(Objects.requireNonNull(outsideEffect, "outsideEffect")::read);
    OutboxRecord first = messages.get();
    Violations violations = new Violations("Handler " + first.type() + " is not idempotent");
    BigDecimal one = firstCall(first, probe, violations);
    if (one != null) {
      lostCompletion(messages.get(), one, probe, violations);
      calledAgain(messages.get(), probe, violations);
    }
    violations.throwIfAny();
  }

  private BigDecimal firstCall(OutboxRecord message, Probe probe, Violations violations) {
    String name = "first-call-applies";
    Delivery[] delivery = new Delivery[1];
    BigDecimal d;
    try {
      d = probe.delta(() -> delivery[0] = handler.handle(message, new Recording()));
    } catch (Exception e) {
      violations.threw(name, "the first call with a message", e);
      return null;
    }
    if (delivery[0] != Delivery.done()) {
      violations.add(name, "the first call with a message returned " + delivery[0] + ", not done");
    }
    if (d.signum() == 0) {
      violations.add(
          name,
          "the first call with a message did not move the outside effect, so the probe cannot see"
              + " the handler's effect and nothing else could be judged");
      return null;
    }
    return delivery[0] == Delivery.done() ? d : null;
  }

  private void lostCompletion(
      OutboxRecord message, BigDecimal one, Probe probe, Violations violations) {
    String name = "lost-completion";
    Delivery[] again = new Delivery[1];
    try {
      BigDecimal moved =
          probe.delta(
              () -> {
                try {
                  handler.handle(message, HandlerFaults.crashingCompletion());
                } catch (Exception crashed) {
                  // the attempt failed, as asked: the relay retries it
                }
                again[0] = handler.handle(OutboxRecords.attempt(message, 2), new Recording());
              });
      if (moved.compareTo(one) != 0) {
        violations.add(
            name,
            "a call whose row completion was lost (a crash before the row was marked delivered),"
                + " then the relay's next attempt, moved the outside effect by "
                + Probe.words(moved)
                + ", expected "
                + Probe.words(one)
                + ": call the outside world with a key derived from the message (its messageId)");
      }
      if (again[0] != Delivery.done()) {
        violations.add(
            name, "the attempt after a lost completion returned " + again[0] + ", not done");
      }
    } catch (Exception e) {
      violations.threw(name, "the attempt after a lost completion", e);
    }
  }

  private void calledAgain(OutboxRecord message, Probe probe, Violations violations) {
    String name = "called-again";
    try {
      handler.handle(message, new Recording());
      BigDecimal moved =
          probe.delta(() -> handler.handle(OutboxRecords.attempt(message, 2), new Recording()));
      if (moved.signum() != 0) {
        violations.add(
            name,
            "a call with a message already done (a relay that lost its lease calls again) moved"
                + " the outside effect by "
                + Probe.words(moved)
                + ", expected 0");
      }
    } catch (Exception e) {
      violations.threw(name, "a call with a message already done", e);
    }
  }

  /** A completion that completes nothing and records that the handler joined it. */
  private static final class Recording implements Completion {
    private boolean joined;

    @Override
    public void completeIn(Connection tx) {
      joined = true;
    }

    @Override
    public boolean joined() {
      return joined;
    }
  }
}
