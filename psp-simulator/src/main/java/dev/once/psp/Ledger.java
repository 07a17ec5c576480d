package dev.once.psp;

import dev.once.psp.Requests.ChargeRequest;
import dev.once.psp.Requests.RefundRequest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The charges and refunds applied, with the decline rules. Charges are kept per merchant reference
 * and are not deduplicated by it: a reference charged under two keys holds two charges.
 */
final class Ledger {
  static final String CARD_DECLINED = "card_declined";
  static final String REFUND_DECLINED = "refund_declined";
  static final String CHARGE_NOT_SUCCEEDED = "charge_not_succeeded";
  static final String EXCEEDS_CHARGE = "exceeds_charge";

  /** A charge; {@code refunded} is guarded by the charge's monitor. */
  static final class Charge {
    final String id;
    final ChargeRequest request;
    final String declineCode;
    private BigDecimal refunded = BigDecimal.ZERO;

    Charge(String id, ChargeRequest request, String declineCode) {
      this.id = id;
      this.request = request;
      this.declineCode = declineCode;
    }

    boolean succeeded() {
      return declineCode == null;
    }
  }

  record Refund(String id, RefundRequest request, String declineCode) {
    boolean succeeded() {
      return declineCode == null;
    }
  }

  private final ConcurrentHashMap<String, List<Charge>> charges = new ConcurrentHashMap<>();

  /**
   * Decides a charge (declined iff the amount's fraction is exactly .51), passes it to {@code
   * record} and then applies it; if {@code record} throws, nothing is applied.
   */
  Charge charge(ChargeRequest request, Consumer<Charge> record) {
    Charge charge =
        new Charge(id("ch_"), request, request.amount().fractionIs(51) ? CARD_DECLINED : null);
    record.accept(charge);
    restore(charge);
    return charge;
  }

  /** Applies a charge decided before (replayed from the journal). */
  void restore(Charge charge) {
    charges.compute(
        charge.request.reference(),
        (reference, list) -> {
          List<Charge> more = list == null ? new ArrayList<>() : new ArrayList<>(list);
          more.add(charge);
          return List.copyOf(more);
        });
  }

  /**
   * The charge a refund of {@code reference} applies to: the latest succeeded charge with that
   * reference, else the latest charge (then a declined one); null if none.
   */
  Charge chargeFor(String reference) {
    List<Charge> list = charges.getOrDefault(reference, List.of());
    for (int i = list.size() - 1; i >= 0; i--) {
      if (list.get(i).succeeded()) {
        return list.get(i);
      }
    }
    return list.isEmpty() ? null : list.get(list.size() - 1);
  }

  /**
   * Applies a refund of {@code charge}. Declined, in this order of precedence, if the charge was
   * declined, if the amount's fraction is exactly .52, or if the succeeded refunds of the charge
   * plus this one would exceed it. Serialized per charge so that concurrent refunds never do. The
   * decided refund is passed to {@code record} before it is applied; if that throws, nothing is.
   */
  Refund refund(RefundRequest request, Charge charge, Consumer<Refund> record) {
    synchronized (charge) {
      String declineCode;
      if (!charge.succeeded()) {
        declineCode = CHARGE_NOT_SUCCEEDED;
      } else if (request.amount().fractionIs(52)) {
        declineCode = REFUND_DECLINED;
      } else if (charge
              .refunded
              .add(request.amount().value)
              .compareTo(charge.request.amount().value)
          > 0) {
        declineCode = EXCEEDS_CHARGE;
      } else {
        declineCode = null;
      }
      Refund refund = new Refund(id("re_"), request, declineCode);
      record.accept(refund);
      restore(refund, charge);
      return refund;
    }
  }

  /** The charge with {@code id} among those of {@code reference}, or null. */
  Charge charge(String reference, String id) {
    for (Charge charge : charges.getOrDefault(reference, List.of())) {
      if (charge.id.equals(id)) {
        return charge;
      }
    }
    return null;
  }

  /** Applies a refund of {@code charge} decided before (also replayed from the journal). */
  void restore(Refund refund, Charge charge) {
    if (refund.succeeded()) {
      synchronized (charge) {
        charge.refunded = charge.refunded.add(refund.request().amount().value);
      }
    }
  }

  static Map<String, Object> json(Charge charge) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("id", charge.id);
    body.put("reference", charge.request.reference());
    body.put("amount", charge.request.amount().text);
    body.put("currency", charge.request.currency());
    body.put("status", charge.succeeded() ? "succeeded" : "declined");
    if (!charge.succeeded()) {
      body.put("declineCode", charge.declineCode);
    }
    return body;
  }

  static Map<String, Object> json(Refund refund) {
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("id", refund.id());
    body.put("reference", refund.request().reference());
    body.put("charge", refund.request().charge());
    body.put("amount", refund.request().amount().text);
    body.put("currency", refund.request().currency());
    body.put("status", refund.succeeded() ? "succeeded" : "declined");
    if (!refund.succeeded()) {
      body.put("declineCode", refund.declineCode());
    }
    return body;
  }

  private static String id(String prefix) {
    return prefix + UUID.randomUUID().toString().replace("-", "");
  }
}
