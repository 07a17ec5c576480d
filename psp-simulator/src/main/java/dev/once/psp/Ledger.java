package dev.once.psp;

import dev.once.psp.Requests.ChargeRequest;
import dev.once.psp.Requests.RefundRequest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

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

  /** Applies a charge: declined iff the amount's fraction is exactly .51. */
  Charge charge(ChargeRequest request) {
    Charge charge =
        new Charge(id("ch_"), request, request.amount().fractionIs(51) ? CARD_DECLINED : null);
    charges.compute(
        request.reference(),
        (reference, list) -> {
          List<Charge> more = list == null ? new ArrayList<>() : new ArrayList<>(list);
          more.add(charge);
          return List.copyOf(more);
        });
    return charge;
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
   * plus this one would exceed it. Serialized per charge so that concurrent refunds never do.
   */
  Refund refund(RefundRequest request, Charge charge) {
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
        charge.refunded = charge.refunded.add(request.amount().value);
      }
      return new Refund(id("re_"), request, declineCode);
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
