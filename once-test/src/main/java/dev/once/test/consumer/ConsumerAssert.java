package dev.once.test.consumer;

import dev.once.inbox.InboxMessage;
import dev.once.test.Effect;
import dev.once.test.faults.InjectedFault;
import dev.once.test.internal.Probe;
import dev.once.test.internal.Violations;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Proves a consumer idempotent: each message it is delivered moves the business effect exactly
 * once, however often, concurrently or out of order the transport delivers it, and a delivery that
 * fails mid-effect leaves no effect. Each scenario uses a message of its own:
 *
 * <ul>
 *   <li>{@code [first-delivery-applies]}: one delivery moves the effect by some d ≠ 0 (one effect;
 *       if it does not, nothing else can be judged and the assertion stops);
 *   <li>{@code [delivered-twice]}, {@code [delivered-three-times]}: delivering one message two or
 *       three times moves it by d;
 *   <li>{@code [delivered-concurrently]}: {@link #concurrency(int) n} deliveries of one message at
 *       once (released together by a latch; a delivery that throws is delivered again after the
 *       others, as a transport would) move it by d;
 *   <li>{@code [out-of-order]}: messages B, A, A, B move it by 2d;
 *   <li>{@code [rollback-mid-effect]}: a delivery whose transaction fails after the consumer's
 *       effect moves it by 0, and the next delivery of that message by d.
 * </ul>
 *
 * Every check runs; then the assertion fails once, with an {@link AssertionError} starting {@code
 * Consumer <name> is not idempotent:} and listing every violation, one per line. The kit assumes
 * nothing else moves the effect while it runs. A wait for concurrent deliveries gives up after 60
 * seconds. Not thread-safe; use it on the test's thread.
 */
public final class ConsumerAssert {
  private static final long PATIENCE_SECONDS = 60;
  private final ConsumerTarget target;
  private int concurrency = 8;

  /** Assertions on {@code target}; see {@link dev.once.test.OnceAssertions}. */
  public ConsumerAssert(ConsumerTarget target) {
    this.target = Objects.requireNonNull(target, "target");
  }

  /** How many deliveries of one message run at once in the concurrent check, 2 to 64. Default 8. */
  public ConsumerAssert concurrency(int n) {
    if (n < 2 || n > 64) {
      throw new IllegalArgumentException("concurrency must be 2 to 64, was " + n);
    }
    this.concurrency = n;
    return this;
  }

  /**
   * Checks every scenario, each with a copy of {@code event} under a new message id. For consumers
   * whose effect may happen once per business object whatever the message (pay order 1), use {@link
   * #isIdempotent(Supplier, Effect)}.
   *
   * @param effect reads the business effect (a row count, a balance)
   */
  public void isIdempotent(InboxMessage event, Effect effect) {
    Objects.requireNonNull(event, "event");
    isIdempotent(
        () ->
            new InboxMessage(
                UUID.randomUUID(),
                event.type(),
                event.aggregateId(),
                event.payloadJson(),
                event.trace()),
        effect);
  }

  /**
   * Checks every scenario, each with fresh messages from {@code events} (each must have a message
   * id of its own).
   *
   * @param effect reads the business effect (a row count, a balance)
   */
  public void isIdempotent(Supplier<InboxMessage> events, Effect effect) {
    Objects.requireNonNull(events, "events");
    Probe probe = new Probe(Objects.requireNonNull(effect, "effect")::read);
    Violations violations = new Violations("Consumer " + target.name() + " is not idempotent");
    BigDecimal one = firstDelivery(events.get(), probe, violations);
    if (one != null) {
      repeated(events.get(), 2, "delivered-twice", "twice", one, probe, violations);
      repeated(events.get(), 3, "delivered-three-times", "three times", one, probe, violations);
      concurrent(events.get(), one, probe, violations);
      outOfOrder(events.get(), events.get(), one, probe, violations);
      rollbackMidEffect(events.get(), one, probe, violations);
    }
    violations.throwIfAny();
  }

  private BigDecimal firstDelivery(InboxMessage a, Probe probe, Violations violations) {
    BigDecimal d;
    try {
      d = probe.delta(() -> target.deliver(a));
    } catch (Exception e) {
      violations.threw("first-delivery-applies", "the first delivery of a message", e);
      return null;
    }
    if (d.signum() == 0) {
      violations.add(
          "first-delivery-applies",
          "the first delivery of a message did not move the effect, so the probe cannot see the"
              + " consumer's effect and nothing else could be judged");
      return null;
    }
    return d;
  }

  private void repeated(
      InboxMessage a,
      int times,
      String name,
      String words,
      BigDecimal one,
      Probe probe,
      Violations violations) {
    try {
      BigDecimal moved =
          probe.delta(
              () -> {
                for (int i = 0; i < times; i++) {
                  target.deliver(a);
                }
              });
      if (moved.compareTo(one) != 0) {
        violations.add(
            name,
            "delivering one message "
                + words
                + moved(moved, one)
                + "; each message must apply once");
      }
    } catch (Exception e) {
      violations.threw(name, "delivering one message " + words, e);
    }
  }

  private void concurrent(InboxMessage a, BigDecimal one, Probe probe, Violations violations) {
    String name = "delivered-concurrently";
    ExecutorService pool = Executors.newFixedThreadPool(concurrency);
    try {
      BigDecimal moved =
          probe.delta(
              () -> {
                CountDownLatch ready = new CountDownLatch(concurrency);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> deliveries = new ArrayList<>();
                for (int i = 0; i < concurrency; i++) {
                  deliveries.add(
                      pool.submit(
                          () -> {
                            ready.countDown();
                            if (!go.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                              throw new TimeoutException("the start gate did not open");
                            }
                            target.deliver(a);
                            return null;
                          }));
                }
                if (!ready.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                  throw new TimeoutException(
                      concurrency + " delivery threads were not ready within 60 s");
                }
                go.countDown();
                int failed = 0;
                for (Future<?> delivery : deliveries) {
                  try {
                    delivery.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
                  } catch (java.util.concurrent.ExecutionException e) {
                    failed++;
                  }
                }
                // The transport delivers again what failed, once the others are done.
                for (int i = 0; i < failed; i++) {
                  target.deliver(a);
                }
              });
      if (moved.compareTo(one) != 0) {
        violations.add(
            name,
            concurrency
                + " concurrent deliveries of one message (those that failed delivered again)"
                + moved(moved, one)
                + "; each message must apply once");
      }
    } catch (TimeoutException e) {
      violations.add(
          name,
          concurrency + " concurrent deliveries did not finish within 60 s: " + e.getMessage());
    } catch (Exception e) {
      violations.threw(name, "delivering again a message whose concurrent delivery failed", e);
    } finally {
      pool.shutdownNow();
    }
  }

  private void outOfOrder(
      InboxMessage a, InboxMessage b, BigDecimal one, Probe probe, Violations violations) {
    String name = "out-of-order";
    if (a.messageId().equals(b.messageId())) {
      throw new IllegalArgumentException("the events supplier gave one message id twice");
    }
    try {
      BigDecimal two = one.add(one);
      BigDecimal moved =
          probe.delta(
              () -> {
                target.deliver(b);
                target.deliver(a);
                target.deliver(a);
                target.deliver(b);
              });
      if (moved.compareTo(two) != 0) {
        violations.add(
            name,
            "delivering two messages as B, A, A, B" + moved(moved, two) + " (one effect each)");
      }
    } catch (Exception e) {
      violations.threw(name, "delivering two messages as B, A, A, B", e);
    }
  }

  private void rollbackMidEffect(
      InboxMessage a, BigDecimal one, Probe probe, Violations violations) {
    String name = "rollback-mid-effect";
    try {
      BigDecimal failed =
          probe.delta(
              () -> {
                try {
                  target.deliverFailingMidEffect(a);
                } catch (InjectedFault expected) {
                  // the transaction failed, as asked
                }
              });
      if (failed.signum() != 0) {
        violations.add(
            name,
            "a delivery whose transaction failed after the consumer's effect still moved the"
                + " effect by "
                + Probe.words(failed)
                + ": the effect must commit in the inbox's transaction, or not at all");
      }
      BigDecimal again = probe.delta(() -> target.deliver(a));
      if (again.compareTo(one) != 0) {
        violations.add(
            name,
            "the delivery after a rolled back one"
                + moved(again, one)
                + ": the rolled back delivery must leave the message to apply");
      }
    } catch (Exception e) {
      violations.threw(name, "a delivery after a rollback mid-effect", e);
    }
  }

  private static String moved(BigDecimal moved, BigDecimal expected) {
    return " moved the effect by " + Probe.words(moved) + ", expected " + Probe.words(expected);
  }
}
