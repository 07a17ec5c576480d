package dev.once.shop.provider;

import dev.once.outbox.Completion;
import dev.once.outbox.Delivery;
import dev.once.outbox.OutboxRecord;
import dev.once.shop.payments.IllegalPaymentTransitionException;
import dev.once.shop.payments.PaymentService;
import dev.once.shop.payments.PaymentStatus;
import dev.once.shop.payments.RefundReversalException;
import dev.once.shop.problems.NotFoundException;
import dev.once.spring.outbox.OutboxHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outbox handlers of {@value PaymentService#PROVIDER_CHARGE} and {@value
 * PaymentService#PROVIDER_REFUND}: after the request's transaction committed, the relay calls the
 * provider with a key derived from the payment or refund id, then records the final answer in a
 * transaction of its own, which also completes the outbox row (one commit for both). The handler
 * may run more than once for one row (a crash or a lost lease between the provider's answer and the
 * row's completion): the provider answers a repeated key with its first answer without applying it
 * again, and recording the same answer twice is a no-op, so the provider's effect and the shop's
 * money move once.
 *
 * <ul>
 *   <li>succeeded or declined: recorded; the row is done;
 *   <li>no final answer (time-out, broken connection, 5xx, 409, 429): retried with backoff;
 *   <li>the provider rejects the request itself (another 4xx): dead at once, with an error log.
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class ProviderHandlers {
  private static final Logger log = LoggerFactory.getLogger(ProviderHandlers.class);

  /**
   * Name of the observation (span and timer) of each settlement: the transaction that records the
   * provider's final answer, completes the outbox row and publishes the payment's event. Tags
   * {@code operation} ({@code charge} or {@code refund}) and {@code outcome} ({@code succeeded} or
   * {@code failed}); never an id or an amount.
   */
  static final String SETTLEMENTS = "shop.payment.settlements";

  /** Idempotency-Key prefix of charges; followed by the payment id. */
  static final String CHARGE_KEY_PREFIX = "shop-charge-";

  /** Idempotency-Key prefix of refunds; followed by the refund id. */
  static final String REFUND_KEY_PREFIX = "shop-refund-";

  @Bean
  OutboxHandler providerChargeHandler(
      ProviderClient provider,
      PaymentService payments,
      JsonMapper json,
      ObjectProvider<ObservationRegistry> observations) {
    ObservationRegistry registry = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    return handler(
        PaymentService.PROVIDER_CHARGE,
        (row, completion) -> {
          ChargeMessage charge = json.readValue(row.payloadJson(), ChargeMessage.class);
          ProviderAnswer answer =
              provider.charge(
                  CHARGE_KEY_PREFIX + charge.paymentId(),
                  charge.paymentId(),
                  charge.amount(),
                  charge.currency());
          return record(
              row,
              answer,
              observed(
                  registry,
                  "charge",
                  outcome -> payments.settle(charge.paymentId(), outcome, completion)),
              "payment " + charge.paymentId());
        });
  }

  @Bean
  OutboxHandler providerRefundHandler(
      ProviderClient provider,
      PaymentService payments,
      JsonMapper json,
      ObjectProvider<ObservationRegistry> observations) {
    ObservationRegistry registry = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
    return handler(
        PaymentService.PROVIDER_REFUND,
        (row, completion) -> {
          RefundMessage refund = json.readValue(row.payloadJson(), RefundMessage.class);
          ProviderAnswer answer =
              provider.refund(
                  REFUND_KEY_PREFIX + refund.refundId(),
                  refund.refundId(),
                  refund.paymentId(),
                  refund.amount(),
                  refund.currency());
          try {
            return record(
                row,
                answer,
                observed(
                    registry,
                    "refund",
                    outcome -> payments.settleRefund(refund.refundId(), outcome, completion)),
                "refund " + refund.refundId());
          } catch (RefundReversalException e) {
            // Only a refund credited at request time, before the shop's V6: a refund accepted
            // since then has credited nothing when the provider refuses it.
            log.warn("{}", e.getMessage());
            return Delivery.retry("refused refund cannot be reversed: balance too low");
          }
        });
  }

  /** Records a final answer through {@code settle}; decides what the row becomes. */
  private static Delivery record(
      OutboxRecord row, ProviderAnswer answer, Settlement settle, String what) {
    if (answer instanceof ProviderAnswer.Succeeded) {
      return settled(row, settle, PaymentStatus.SUCCEEDED, what);
    }
    if (answer instanceof ProviderAnswer.Declined) {
      return settled(row, settle, PaymentStatus.FAILED, what);
    }
    if (answer instanceof ProviderAnswer.Unavailable unavailable) {
      return Delivery.retry("provider: " + unavailable.reason());
    }
    ProviderAnswer.Rejected rejected = (ProviderAnswer.Rejected) answer;
    log.error(
        "The provider rejected {} ({}, outbox row {}): the row is dead and needs an operator.",
        what,
        rejected.reason(),
        row.id());
    return Delivery.dead("provider rejected the request: " + rejected.reason());
  }

  private static Delivery settled(
      OutboxRecord row, Settlement settle, PaymentStatus outcome, String what) {
    try {
      settle.apply(outcome);
      return Delivery.done();
    } catch (IllegalPaymentTransitionException | NotFoundException e) {
      log.error("Cannot record the provider's answer for {} (outbox row {}).", what, row.id());
      return Delivery.dead(e.getClass().getSimpleName());
    }
  }

  /**
   * {@code settle} as an observation {@value #SETTLEMENTS}: with a tracer, a span inside the
   * delivery's, in which the settlement's transaction runs, so the event it publishes carries it.
   */
  private static Settlement observed(
      ObservationRegistry registry, String operation, Settlement settle) {
    return outcome ->
        Observation.createNotStarted(SETTLEMENTS, registry)
            .contextualName("settle " + operation)
            .lowCardinalityKeyValue("operation", operation)
            .lowCardinalityKeyValue(
                "outcome", outcome == PaymentStatus.SUCCEEDED ? "succeeded" : "failed")
            .observe(() -> settle.apply(outcome));
  }

  private static OutboxHandler handler(String type, Body body) {
    return new OutboxHandler() {
      @Override
      public String type() {
        return type;
      }

      @Override
      public Delivery handle(OutboxRecord row) {
        return handle(row, Completion.NONE);
      }

      @Override
      public Delivery handle(OutboxRecord row, Completion completion) {
        try {
          return body.handle(row, completion);
        } catch (JacksonException e) {
          log.error("Outbox row {} of type {} has an unreadable payload.", row.id(), type);
          return Delivery.dead("unreadable payload");
        }
      }
    };
  }

  @FunctionalInterface
  private interface Body {
    Delivery handle(OutboxRecord row, Completion completion);
  }

  @FunctionalInterface
  private interface Settlement {
    void apply(PaymentStatus outcome);
  }

  /**
   * The payload of {@value PaymentService#PROVIDER_CHARGE}, as {@code PaymentService} writes it.
   */
  record ChargeMessage(
      String paymentId,
      String accountId,
      String amount,
      String currency,
      String chargeOperationId) {}

  /** The payload of {@value PaymentService#PROVIDER_REFUND}. */
  record RefundMessage(String refundId, String paymentId, String amount, String currency) {}
}
