/**
 * Proves an application's outbox handler idempotent: {@link dev.once.test.handler.HandlerAssert}
 * calls it as the relay at least once would (again after a crash before the row's completion, again
 * after it was done) and checks the outside effect moved exactly once per message; {@link
 * dev.once.test.handler.OutboxRecords} builds the rows to call it with.
 */
package dev.once.test.handler;
