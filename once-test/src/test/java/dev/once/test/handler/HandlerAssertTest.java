package dev.once.test.handler;

import static dev.once.test.OnceAssertions.assertThatHandler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.outbox.Delivery;
import dev.once.outbox.MessageHandler;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The handler assertion on handlers calling a fake provider that applies each idempotency key once:
 * keyed by the message id it passes; a new key per call, no key, or no effect fail.
 */
@Timeout(60)
class HandlerAssertTest {
  private static final String TYPE = "provider.charge";
  private final Provider provider = new Provider();

  /** A payment provider: a charge with a key it has seen applies nothing; one without applies. */
  static final class Provider {
    private final Map<String, Integer> byKey = new ConcurrentHashMap<>();
    private final AtomicInteger charges = new AtomicInteger();

    void charge(String key) {
      if (key == null || byKey.putIfAbsent(key, 1) == null) {
        charges.incrementAndGet();
      }
    }

    int charges() {
      return charges.get();
    }
  }

  @Test
  void aHandlerKeyedByTheMessageIdIsIdempotent() {
    MessageHandler keyed =
        message -> {
          provider.charge(message.messageId().toString());
          return Delivery.done();
        };

    assertThatHandler(keyed)
        .isIdempotent(OutboxRecords.of(TYPE, "payment-1", "{\"amount\":100}"), provider::charges);
    assertThatHandler(keyed)
        .isIdempotent(
            () -> OutboxRecords.of(TYPE, "payment-" + UUID.randomUUID(), "{\"amount\":5}"),
            provider::charges);
  }

  @Test
  void aHandlerThatCompletesItsRowAfterAKeyedCallIsIdempotent() {
    MessageHandler joining =
        new MessageHandler() {
          @Override
          public Delivery handle(dev.once.outbox.OutboxRecord message) {
            throw new AssertionError("the kit calls handle with a completion");
          }

          @Override
          public Delivery handle(
              dev.once.outbox.OutboxRecord message, dev.once.outbox.Completion c) {
            provider.charge(message.messageId().toString());
            c.completeIn(null); // the crash comes here, after the provider applied the charge
            return Delivery.done();
          }
        };

    assertThatHandler(joining)
        .isIdempotent(OutboxRecords.of(TYPE, "payment-2", "{\"amount\":100}"), provider::charges);
  }

  @Test
  void aHandlerSendingANewKeyPerCallFailsLostCompletionAndCalledAgain() {
    MessageHandler newKey =
        message -> {
          provider.charge(UUID.randomUUID().toString());
          return Delivery.done();
        };

    assertThatThrownBy(
            () ->
                assertThatHandler(newKey)
                    .isIdempotent(OutboxRecords.of(TYPE, "p", "{}"), provider::charges))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("Handler " + TYPE + " is not idempotent:\n - [lost-completion]")
        .hasMessageContaining("moved the outside effect by 2, expected 1")
        .hasMessageContaining("[called-again] a call with a message already done")
        .hasMessageNotContaining("[first-call-applies]");
  }

  @Test
  void aHandlerSendingNoKeyFailsLikewise() {
    MessageHandler noKey =
        message -> {
          provider.charge(null);
          return Delivery.done();
        };

    assertThatThrownBy(
            () ->
                assertThatHandler(noKey)
                    .isIdempotent(OutboxRecords.of(TYPE, "p", "{}"), provider::charges))
        .hasMessageContaining("[lost-completion]")
        .hasMessageContaining("[called-again]");
  }

  @Test
  void aHandlerWithoutEffectFailsTheFirstCallAndStops() {
    assertThatThrownBy(
            () ->
                assertThatHandler(message -> Delivery.done())
                    .isIdempotent(OutboxRecords.of(TYPE, "p", "{}"), provider::charges))
        .isInstanceOf(AssertionError.class)
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "Handler "
                            + TYPE
                            + " is not idempotent:\n - [first-call-applies] the first call with a"
                            + " message did not move the outside effect, so the probe cannot see"
                            + " the handler's effect and nothing else could be judged"));
  }
}
