/**
 * Proves an application's inbox consumer idempotent: {@link dev.once.test.consumer.ConsumerAssert}
 * delivers messages to a {@link dev.once.test.consumer.ConsumerTarget} as a transport at least once
 * would (twice, three times, concurrently, out of order, after a rollback mid-effect) and checks
 * the business effect moved exactly once per message.
 */
package dev.once.test.consumer;
