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
    long keysInUse) {

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
}
