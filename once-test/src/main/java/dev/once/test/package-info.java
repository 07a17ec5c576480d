/**
 * Once's test kit: assertions that prove an application's own endpoints, consumers and outbox
 * handlers idempotent against real PostgreSQL, and the fixtures to write them.
 */
package dev.once.test;
