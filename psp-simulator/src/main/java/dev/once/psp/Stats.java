package dev.once.psp;

/**
 * A snapshot of the simulator's counters.
 *
 * @param requests well-formed charge and refund requests received (replays, conflicts and faulted
 *     requests included; requests rejected as malformed or invalid are not counted)
 * @param chargesSucceeded charges applied and succeeded
 * @param chargesDeclined charges applied and declined
 * @param refundsSucceeded refunds applied and succeeded
 * @param refundsDeclined refunds applied and declined
 * @param effects all four above: every applied decision, never deduplicated by reference
 * @param errors requests answered 503 by the error fault
 * @param timeouts requests answered 504 by the timeout fault
 * @param lostAnswers requests applied whose answer was never sent
 */
public record Stats(
    long requests,
    long chargesSucceeded,
    long chargesDeclined,
    long refundsSucceeded,
    long refundsDeclined,
    long effects,
    long errors,
    long timeouts,
    long lostAnswers) {}
