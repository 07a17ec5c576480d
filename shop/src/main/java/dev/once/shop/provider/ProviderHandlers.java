package dev.once.shop.provider;

import dev.once.outbox.BatchCompletion;
import dev.once.outbox.BatchMessageHandler;
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
import io.micrometer.tracing.Tracer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>The charge handler is also a batch handler ({@link ChargeHandler}): the relay hands it a
 * claim's charges at once, it calls the provider for each in turn and records all the final answers
 * in one transaction that completes their rows, falling back to one transaction per answer if that
 * one fails.
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

  /**
   * The charge handler, also a {@link BatchMessageHandler}: the relay hands it a claim's charges at
   * once ({@link ChargeHandler#handleAll}).
   */
  @Bean
  OutboxHandler providerChargeHandler(
      ProviderClient provider,
      PaymentService payments,
      JsonMapper json,
      ObjectProvider<ObservationRegistry> observations,
      ObjectProvider<Tracer> tracers) {
    return new ChargeHandler(
        provider,
        payments,
        json,
        observations.getIfAvailable(() -> ObservationRegistry.NOOP),
        new RowTraces(tracers.getIfAvailable()));
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
    PaymentStatus outcome = finalOutcome(answer);
    return outcome != null ? settled(row, settle, outcome, what) : notFinal(row, answer, what);
  }

  /** The payment status a final answer records; {@code null} for an answer that is not final. */
  private static PaymentStatus finalOutcome(ProviderAnswer answer) {
    if (answer instanceof ProviderAnswer.Succeeded) {
      return PaymentStatus.SUCCEEDED;
    }
    return answer instanceof ProviderAnswer.Declined ? PaymentStatus.FAILED : null;
  }

  /** What a row becomes on an answer that is not final: retried, or dead if it was rejected. */
  private static Delivery notFinal(OutboxRecord row, ProviderAnswer answer, String what) {
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
        observation(registry, operation, outcome).observe(() -> settle.apply(outcome));
  }

  private static Observation observation(
      ObservationRegistry registry, String operation, PaymentStatus outcome) {
    return Observation.createNotStarted(SETTLEMENTS, registry)
        .contextualName("settle " + operation)
        .lowCardinalityKeyValue("operation", operation)
        .lowCardinalityKeyValue(
            "outcome", outcome == PaymentStatus.SUCCEEDED ? "succeeded" : "failed");
  }

  /**
   * The handler of {@value PaymentService#PROVIDER_CHARGE}. One row ({@link #handle}): the provider
   * call, then the answer recorded in a transaction that also completes the row. A batch ({@link
   * #handleAll}): the provider is called for the rows of a batch concurrently, at most {@value
   * #CONCURRENT_CALLS} calls at a time (each under its own key, as alone), then every final answer
   * of the batch is recorded in ONE transaction ({@link PaymentService#settleAll}) that also
   * completes those rows, so a batch of settlements costs one commit. A row without a final answer
   * is retried, a rejected one is dead, per row, as alone. If the batch's transaction fails (a
   * payment that cannot take its answer, a lost claim, a database error), it is rolled back and
   * each final answer is recorded alone, with its own row's completion: the faulty row fails alone
   * and the others are settled; the provider is not called again. Each settlement is an observation
   * {@value #SETTLEMENTS} in its row's trace, as alone.
   */
  static final class ChargeHandler implements OutboxHandler, BatchMessageHandler, AutoCloseable {
    /**
     * Provider calls of one handler in flight at once: a batch is one relay worker, so its calls
     * run on this pool (threads made on demand and let go after a minute idle).
     */
    static final int CONCURRENT_CALLS = 16;

    private final ThreadPoolExecutor calls = callPool();
    private final ProviderClient provider;
    private final PaymentService payments;
    private final JsonMapper json;
    private final ObservationRegistry registry;
    private final RowTraces traces;

    ChargeHandler(
        ProviderClient provider,
        PaymentService payments,
        JsonMapper json,
        ObservationRegistry registry,
        RowTraces traces) {
      this.provider = provider;
      this.payments = payments;
      this.json = json;
      this.registry = registry;
      this.traces = traces;
    }

    @Override
    public String type() {
      return PaymentService.PROVIDER_CHARGE;
    }

    @Override
    public Delivery handle(OutboxRecord row) {
      return handle(row, Completion.NONE);
    }

    @Override
    public Delivery handle(OutboxRecord row, Completion completion) {
      ChargeMessage charge = read(row);
      if (charge == null) {
        return Delivery.dead("unreadable payload");
      }
      return record(row, call(charge), settlement(charge, completion), what(charge));
    }

    @Override
    public List<Delivery> handleAll(List<OutboxRecord> rows, BatchCompletion completion) {
      Delivery[] outcomes = new Delivery[rows.size()];
      List<Answered> settling = new ArrayList<>();
      List<Call> answers = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        OutboxRecord row = rows.get(i);
        ChargeMessage charge = read(row);
        if (charge == null) {
          outcomes[i] = Delivery.dead("unreadable payload");
          continue;
        }
        answers.add(
            new Call(
                i, row, charge, calls.submit(() -> traces.inContextOf(row, () -> call(charge)))));
      }
      for (Call pending : answers) {
        ProviderAnswer answer = answerOf(pending, outcomes);
        if (answer == null) {
          continue;
        }
        PaymentStatus outcome = finalOutcome(answer);
        if (outcome == null) {
          outcomes[pending.index()] = notFinal(pending.row(), answer, what(pending.charge()));
        } else {
          settling.add(new Answered(pending.index(), pending.row(), pending.charge(), outcome));
        }
      }
      if (!settling.isEmpty()) {
        settleAll(settling, completion, outcomes);
      }
      return List.of(outcomes);
    }

    /**
     * The answer of one call, or {@code null} with the row's outcome set: a call that threw is a
     * retry, named by its type (as the relay takes a single row's exception); if the relay
     * interrupts the batch (its time-out, a shutdown), the calls not answered yet are cancelled and
     * their rows retried.
     */
    private ProviderAnswer answerOf(Call pending, Delivery[] outcomes) {
      try {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException();
        }
        return pending.answer().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        pending.answer().cancel(true);
        outcomes[pending.index()] =
            Delivery.retry("interrupted: the relay is closing or timed out");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        outcomes[pending.index()] = Delivery.retry(cause.getClass().getName());
      }
      return null;
    }

    @Override
    public void close() {
      calls.shutdownNow();
    }

    private static ThreadPoolExecutor callPool() {
      AtomicInteger count = new AtomicInteger();
      ThreadPoolExecutor pool =
          new ThreadPoolExecutor(
              CONCURRENT_CALLS,
              CONCURRENT_CALLS,
              1,
              TimeUnit.MINUTES,
              new LinkedBlockingQueue<>(),
              task -> {
                Thread thread = new Thread(task, "shop-provider-call-" + count.incrementAndGet());
                thread.setDaemon(true);
                return thread;
              });
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }

    /** A provider call of a batch's row, under way. */
    private record Call(
        int index, OutboxRecord row, ChargeMessage charge, Future<ProviderAnswer> answer) {}

    /** The batch's final answers in one transaction; if it fails, each alone. */
    private void settleAll(
        List<Answered> settling, BatchCompletion completion, Delivery[] outcomes) {
      Map<String, Answered> byPayment = new HashMap<>();
      settling.forEach(answered -> byPayment.put(answered.charge().paymentId(), answered));
      try {
        payments.settleAll(
            settling.stream()
                .map(a -> new PaymentService.Settlement(a.charge().paymentId(), a.outcome()))
                .toList(),
            completion.of(settling.stream().map(Answered::row).toList()),
            (settlement, record) ->
                traces.inContextOf(
                    byPayment.get(settlement.paymentId()).row(),
                    () -> observation(registry, "charge", settlement.outcome()).observe(record)));
        settling.forEach(answered -> outcomes[answered.index()] = Delivery.done());
      } catch (RuntimeException e) {
        log.debug(
            "Recording {} provider answers in one transaction failed ({}); recording each alone.",
            settling.size(),
            e.getClass().getName());
        for (Answered answered : settling) {
          outcomes[answered.index()] = alone(answered, completion);
        }
      }
    }

    /** One final answer recorded alone, with its row's completion; a failure is this row's. */
    private Delivery alone(Answered answered, BatchCompletion completion) {
      try {
        return traces.inContextOf(
            answered.row(),
            () ->
                settled(
                    answered.row(),
                    settlement(answered.charge(), completion.of(answered.row())),
                    answered.outcome(),
                    what(answered.charge())));
      } catch (RuntimeException e) {
        // As the relay takes a single row's exception: a retry, named by its type only.
        return Delivery.retry(e.getClass().getName());
      }
    }

    private ProviderAnswer call(ChargeMessage charge) {
      return provider.charge(
          CHARGE_KEY_PREFIX + charge.paymentId(),
          charge.paymentId(),
          charge.amount(),
          charge.currency());
    }

    private Settlement settlement(ChargeMessage charge, Completion completion) {
      return observed(
          registry, "charge", outcome -> payments.settle(charge.paymentId(), outcome, completion));
    }

    /** The row's payload, or {@code null} (logged) if it is unreadable. */
    private ChargeMessage read(OutboxRecord row) {
      try {
        return json.readValue(row.payloadJson(), ChargeMessage.class);
      } catch (JacksonException e) {
        log.error("Outbox row {} of type {} has an unreadable payload.", row.id(), type());
        return null;
      }
    }

    private static String what(ChargeMessage charge) {
      return "payment " + charge.paymentId();
    }

    /** A row of the batch with the provider's final answer. */
    private record Answered(
        int index, OutboxRecord row, ChargeMessage charge, PaymentStatus outcome) {}
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
