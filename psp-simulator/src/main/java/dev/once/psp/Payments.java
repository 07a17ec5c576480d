package dev.once.psp;

import com.sun.net.httpserver.HttpExchange;
import dev.once.psp.FaultPlan.Fault;
import dev.once.psp.IdempotencyKeys.Claim;
import dev.once.psp.Ledger.Charge;
import dev.once.psp.Ledger.Refund;
import dev.once.psp.Requests.ChargeRequest;
import dev.once.psp.Requests.RefundRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/charges} and {@code POST /v1/refunds}: validate, check the idempotency key, draw
 * a fault, decide, journal, apply, store the answer. Returns the reply; problems are thrown.
 *
 * <p>With a {@link Journal}, every counted request, error and timeout and every applied effect is
 * appended before it counts or applies, and {@link #replay} rebuilds the ledger, the keys with
 * their answers and the counters from those records, so that a restart answers and counts as if the
 * process had never stopped.
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

  /** Decides an effect, appends its record, applies and counts it; answers it. */
  private interface Apply {
    Answer apply(boolean lostAnswer);
  }

  private final Ledger ledger = new Ledger();
  private final IdempotencyKeys chargeKeys = new IdempotencyKeys();
  private final IdempotencyKeys refundKeys = new IdempotencyKeys();
  private final Counters counters;
  private final FaultPlan plan;
  private final Controls controls;
  private final Journal journal;

  Payments(Counters counters, FaultPlan plan, Controls controls, Journal journal) {
    this.counters = counters;
    this.journal = journal;
    this.plan = plan;
    this.controls = controls;
  }

  Reply charge(HttpExchange exchange) throws IOException {
    String key = Http.idempotencyKey(exchange);
    ChargeRequest request = Requests.charge(Http.jsonBody(exchange));
    countRequest(request.reference());
    return execute(
        chargeKeys,
        key,
        request,
        request.reference(),
        lostAnswer ->
            journal.atomically(
                () -> {
                  Charge charge =
                      ledger.charge(
                          request,
                          decided ->
                              journal.append(
                                  record("charge", key, lostAnswer, Ledger.json(decided))));
                  counters.charge(request.reference(), charge.succeeded());
                  return new Answer(201, Json.write(Ledger.json(charge)));
                }));
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
    countRequest(request.reference());
    return execute(
        refundKeys,
        key,
        request,
        request.reference(),
        lostAnswer ->
            journal.atomically(
                () -> {
                  Refund refund =
                      ledger.refund(
                          request,
                          charge,
                          decided -> {
                            Map<String, Object> record =
                                record("refund", key, lostAnswer, Ledger.json(decided));
                            record.put("chargeId", charge.id);
                            journal.append(record);
                          });
                  counters.refund(request.reference(), refund.succeeded());
                  return new Answer(201, Json.write(Ledger.json(refund)));
                }));
  }

  private Reply execute(
      IdempotencyKeys keys, String key, Object request, String reference, Apply apply) {
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
        journal.append(Map.of("type", "error"));
        counters.error();
        throw Problem.of(
                503,
                "provider-unavailable",
                "Provider unavailable",
                "Simulated provider error; nothing was applied. Retry with the same key.")
            .withHeader("Retry-After", "1");
      }
      if (fault == Fault.TIMEOUT) {
        journal.append(Map.of("type", "timeout"));
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
      Answer answer = apply.apply(fault == Fault.LOST_ANSWER);
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

  private void countRequest(String reference) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", "request");
    record.put("reference", reference);
    journal.append(record);
    counters.request(reference);
  }

  /**
   * A journal record of an applied charge or refund: its type, the idempotency key, whether its
   * answer is lost, and the answer's body, which holds the request (the key's fingerprint) and the
   * effect (id, status, decline code); a refund's record adds the {@code chargeId} it applies to.
   */
  private static Map<String, Object> record(
      String type, String key, boolean lostAnswer, Map<String, Object> answer) {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("type", type);
    record.put("key", key);
    record.put("lostAnswer", lostAnswer);
    record.put("answer", answer);
    return record;
  }

  /**
   * Applies one journal record to the ledger, the keys and the counters, as its request did.
   *
   * @throws RuntimeException saying why if the record is not one this simulator writes or does not
   *     fit the state rebuilt so far
   */
  void replay(JsonNode record) {
    switch (text(record, "type")) {
      case "request" -> counters.request(text(record, "reference"));
      case "error" -> counters.error();
      case "timeout" -> counters.timeout();
      case "charge" -> {
        JsonNode answer = member(record, "answer");
        ChargeRequest request =
            new ChargeRequest(
                text(answer, "reference"),
                Amount.parse("amount", text(answer, "amount")),
                text(answer, "currency"));
        Charge charge = new Charge(text(answer, "id"), request, declineCode(answer));
        ledger.restore(charge);
        counters.charge(request.reference(), charge.succeeded());
        restoreKey(chargeKeys, record, request, Ledger.json(charge));
      }
      case "refund" -> {
        JsonNode answer = member(record, "answer");
        RefundRequest request =
            new RefundRequest(
                text(answer, "reference"),
                text(answer, "charge"),
                Amount.parse("amount", text(answer, "amount")),
                text(answer, "currency"));
        Charge charge = ledger.charge(request.charge(), text(record, "chargeId"));
        if (charge == null) {
          throw new IllegalArgumentException("the refunded charge is not in the journal before");
        }
        Refund refund = new Refund(text(answer, "id"), request, declineCode(answer));
        ledger.restore(refund, charge);
        counters.refund(request.reference(), refund.succeeded());
        restoreKey(refundKeys, record, request, Ledger.json(refund));
      }
      default -> throw new IllegalArgumentException("unknown type");
    }
  }

  private void restoreKey(
      IdempotencyKeys keys, JsonNode record, Object request, Map<String, Object> answer) {
    byte[] body = Json.write(answer);
    if (!Json.tree(new String(body, StandardCharsets.UTF_8)).equals(member(record, "answer"))) {
      throw new IllegalArgumentException("the answer does not match its effect");
    }
    JsonNode lostAnswer = member(record, "lostAnswer");
    if (!lostAnswer.isBoolean()) {
      throw new IllegalArgumentException("\"lostAnswer\" is not a boolean");
    }
    keys.restore(text(record, "key"), request, new Answer(201, body));
    if (lostAnswer.booleanValue()) {
      counters.lostAnswer();
    }
  }

  private static String declineCode(JsonNode answer) {
    return answer.has("declineCode") ? text(answer, "declineCode") : null;
  }

  private static JsonNode member(JsonNode object, String name) {
    JsonNode value = object.get(name);
    if (value == null) {
      throw new IllegalArgumentException("\"" + name + "\" is missing");
    }
    return value;
  }

  private static String text(JsonNode object, String name) {
    JsonNode value = member(object, name);
    if (!value.isString()) {
      throw new IllegalArgumentException("\"" + name + "\" is not a string");
    }
    return value.stringValue();
  }
}
