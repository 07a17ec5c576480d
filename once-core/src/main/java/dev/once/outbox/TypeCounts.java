package dev.once.outbox;

/**
 * The rows of one message type that are not delivered, for operators.
 *
 * @param type the message type
 * @param pending rows waiting for the relay: due, in backoff, delayed or in flight
 * @param held pending rows held back behind a dead row of their aggregate
 * @param dead rows that need an operator (requeue)
 */
public record TypeCounts(String type, long pending, long held, long dead) {}
