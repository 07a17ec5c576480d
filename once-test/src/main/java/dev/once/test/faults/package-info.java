/**
 * Fault hooks: failures a test injects at the points where idempotency is won or lost (after a
 * handler's writes before their commit, after the commit before the answer reaches the client,
 * before an outbox row's completion commits).
 */
package dev.once.test.faults;
