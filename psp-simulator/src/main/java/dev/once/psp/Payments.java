package dev.once.psp;

import com.sun.net.httpserver.HttpExchange;
import dev.once.psp.FaultPlan.Fault;
import dev.once.psp.IdempotencyKeys.Claim;
import dev.once.psp.Ledger.Charge;
import dev.once.psp.Ledger.Refund;
import dev.once.psp.Requests.ChargeRequest;
import dev.once.psp.Requests.RefundRequest;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code POST /v1/charges} and {@code POST /v1/refunds}: validate, check the idempotency key, draw
 * a fault, apply, store the answer. Returns the reply; problems are thrown.
 */
final class Payments {
  private static final Logger LOG = Logger.getLogger(Payments.class.getName());

  /** The simulator's run-time knobs, read per request. */
  interface Controls {
    Faults faults();

    Consumer<String> afterApply();

    /** Waits {@code millis}; false if the simulator is closing meanwhile. */
    boolean pause(long millis);
  }

  private final Ledger ledger = new Ledger();
  private final IdempotencyKeys chargeKeys = new IdempotencyKeys();
  private final IdempotencyKeys refundKeys = new IdempotencyKeys();
  private final Counters counters;
  private final FaultPlan plan;
  private final Controls controls;

  Payments(Counters counters, FaultPlan plan, Controls controls) {
    this.counters = counters;
    this.plan = plan;
    this.controls = controls;
  }

  Reply charge(HttpExchange exchange) throws IOException {
    String key = Http.idempotencyKey(exchange);
    ChargeRequest request = Requests.charge(Http.jsonBody(exchange));
    counters.request(request.reference());
    return execute(
        chargeKeys,
        key,
        request,
        request.reference(),
        () -> {
          Charge charge = ledger.charge(request);
          counters.charge(request.reference(), charge.succeeded());
          return new Answer(201, Json.write(Ledger.json(charge)));
        });
  }

  Reply refund(HttpExchange exchange) throws IOException {
    String key = Http.idempotencyKey(exchange);
    RefundRequest request = Requests.refund(Http.jsonBody(exchange));
    Charge charge = ledger.chargeFor(request.charge());
    if (charge == null) {
      throw Problem.of(
          404,
          "charge-not-found",
          "Charge not found",
          "No charge has the reference given as \"charge\".");
    }
    if (!charge.request.currency().equals(request.currency())) {
      throw Problem.invalidRequest(
          "currency", "currency must be the charge's currency, " + charge.request.currency() + ".");
    }
    counters.request(request.reference());
    return execute(
        refundKeys,
        key,
        request,
        request.reference(),
        () -> {
          Refund refund = ledger.refund(request, charge);
          counters.refund(request.reference(), refund.succeeded());
          return new Answer(201, Json.write(Ledger.json(refund)));
        });
  }

  private Reply execute(
      IdempotencyKeys keys, String key, Object request, String reference, Supplier<Answer> apply) {
    Claim claim = keys.claim(key, request);
    switch (claim.kind()) {
      case REUSED:
        throw Problem.of(
            422,
            "idempotency-key-reused",
            "Idempotency-Key reused",
            "This Idempotency-Key was used with a different request.");
      case IN_USE:
        throw Problem.of(
                409,
                "idempotency-key-in-use",
                "Idempotency-Key in use",
                "A request with this Idempotency-Key is still being processed; retry later.")
            .withHeader("Retry-After", "1");
      case REPLAY:
        return Reply.of(claim.answer(), Map.of("Idempotent-Replayed", "true"));
      case CLAIMED:
      default:
        break;
    }
    boolean stored = false;
    try {
      Faults faults = controls.faults();
      Fault fault = plan.draw(faults);
      if (fault == Fault.ERROR) {
        counters.error();
        throw Problem.of(
                503,
                "provider-unavailable",
                "Provider unavailable",
                "Simulated provider error; nothing was applied. Retry with the same key.")
            .withHeader("Retry-After", "1");
      }
      if (fault == Fault.TIMEOUT) {
        counters.timeout();
        if (!controls.pause(faults.timeoutMs())) {
          return Reply.ABORT;
        }
        throw Problem.of(
            504,
            "provider-timeout",
            "Provider timeout",
            "Simulated provider timeout; nothing was applied. Retry with the same key.");
      }
      Answer answer = apply.get();
      try {
        runHook(reference);
      } finally {
        keys.complete(key, answer);
        stored = true;
      }
      if (fault == Fault.LOST_ANSWER) {
        counters.lostAnswer();
        return Reply.ABORT;
      }
      return Reply.of(answer, Map.of());
    } finally {
      if (!stored) {
        keys.release(key);
      }
    }
  }

  private void runHook(String reference) {
    try {
      controls.afterApply().accept(reference);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The afterApply hook failed; the answer is stored anyway", e);
    }
  }
}
