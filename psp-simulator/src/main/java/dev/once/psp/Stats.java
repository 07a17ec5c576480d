package dev.once.psp;

/**
 * A snapshot of the simulator's counters.
 *
 * @param requests charge and refund requests that passed validation (replays, 409s, reused keys and
 *     faulted requests included; requests rejected with 400, 404, 413, 415 or 422 {@code
 *     invalid-request} are not counted)
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
