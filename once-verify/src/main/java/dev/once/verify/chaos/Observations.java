package dev.once.verify.chaos;

import java.util.List;
import java.util.Map;

/**
 * Everything the checks look at, gathered once the run is quiet: what the clients sent and were
 * answered, the shop's journals, payments and refunds, the provider's effect counts.
 *
 * @param intents every intent, probes of key reuse included
 * @param replays every answer compared with its intent's first answer
 * @param reuses every key sent again with another body
 * @param accounts every account's balance and journal
 * @param payments the shop's payments (ids)
 * @param refunds the shop's refunds (ids)
 * @param pending payments and refunds still pending
 * @param backlog the outbox's backlog
 * @param dead dead outbox rows
 * @param providerEffects provider effects per merchant reference (payment or refund id)
 * @param providerTotalEffects all provider effects
 * @param keys idempotency keys Once holds (table once.idempotency_key)
 * @param keysInUse of those, the ones still {@code in_progress}
 * @param orders the orders, products and stock: what the clients were told and what the shop holds
 */
public record Observations(
    List<IntentRecord> intents,
    List<ReplayRecord> replays,
    List<ReuseRecord> reuses,
    List<AccountState> accounts,
    List<String> payments,
    List<String> refunds,
    long pending,
    long backlog,
    long dead,
    Map<String, Long> providerEffects,
    long providerTotalEffects,
    long keys,
    long keysInUse,
    OrderObservations orders) {

  /**
   * One intent and its outcome.
   *
   * @param id e.g. {@code c3-17}
   * @param account the account it moves money on
   * @param kind deposit, payment or refund
   * @param number its number (see {@link Amounts})
   * @param status its first answer's status, or null if it timed out
   */
  public record IntentRecord(
      String id, String account, Amounts.Kind kind, long number, Integer status) {
    public boolean timedOut() {
      return status == null;
    }
  }

  /** A later answer to an intent: equal to its first one (status and body) or not. */
  public record ReplayRecord(String intentId, boolean equal, String detail) {}

  /** The answer to an intent's key sent again with another body. */
  public record ReuseRecord(String intentId, int status, String slug) {}

  /** A journal row: its id, kind ({@code deposit}, {@code charge}...) and signed amount. */
  public record JournalRow(String id, String kind, String amount) {}

  /** An account's balance and journal, oldest first. */
  public record AccountState(String account, String balance, List<JournalRow> journal) {}

  /**
   * The orders' side of a run.
   *
   * @param placed every order intent (key-reuse probes included)
   * @param actions every pay and cancel intent
   * @param restocks every restock intent
   * @param initialStock the units each limited product was created with, by sku
   * @param products every product as {@code GET /v1/products/{sku}} answers it once quiet
   * @param orders every order in the shop's database, with its items
   * @param reservations every reservation row
   * @param payments every payment of an order (its description names the order)
   */
  public record OrderObservations(
      List<OrderIntent> placed,
      List<OrderAction> actions,
      List<RestockRecord> restocks,
      Map<String, Long> initialStock,
      List<ProductState> products,
      List<OrderState> orders,
      List<ReservationRow> reservations,
      List<OrderPayment> payments) {
    /** A run without orders. */
    public static OrderObservations none() {
      return new OrderObservations(
          List.of(), List.of(), List.of(), Map.of(), List.of(), List.of(), List.of(), List.of());
    }
  }

  /**
   * An order intent and its outcome.
   *
   * @param id e.g. {@code c3-17}
   * @param account the account it charges
   * @param number its number: the units of the client's tag product in it (see {@link Workload})
   * @param items the units per sku it asked for, tag and decline products included
   * @param decline whether its total is one the provider declines
   * @param status its first answer's status, or null if it timed out
   * @param orderId the order its 201 answered, or null
   */
  public record OrderIntent(
      String id,
      String account,
      long number,
      Map<String, Long> items,
      boolean decline,
      Integer status,
      String orderId) {
    public boolean timedOut() {
      return status == null;
    }
  }

  /**
   * A pay or cancel intent and its outcome.
   *
   * @param id e.g. {@code c3-18}
   * @param pay a pay (true) or a cancel (false)
   * @param orderId the order
   * @param status its first answer's status, or null if it timed out
   * @param answered for a 201 pay the payment id, for a 200 cancel the answered order status
   */
  public record OrderAction(
      String id, boolean pay, String orderId, Integer status, String answered) {}

  /** A restock intent: {@code quantity} units of {@code sku}; status null if it timed out. */
  public record RestockRecord(String id, String sku, long quantity, Integer status) {}

  /** A product as the shop answers it: units available ({@code stock}) and reserved. */
  public record ProductState(String sku, long stock, long reserved) {}

  /** An order in the shop's database, with its units per sku. */
  public record OrderState(
      String id,
      String account,
      String status,
      Map<String, Long> items,
      String total,
      String paymentId,
      String refundId) {}

  /** A reservation row: {@code held}, {@code released}, {@code rejected} or {@code void}. */
  public record ReservationRow(String orderId, String sku, long quantity, String state) {}

  /** A payment of an order: {@code pending}, {@code succeeded} or {@code failed}. */
  public record OrderPayment(String id, String orderId, String status) {}
}
