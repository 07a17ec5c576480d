/**
 * Once core: plain-Java idempotency engine, inbox, outbox and RFC 8785 canonicalizer on PostgreSQL.
 *
 * <p>This module depends on the JDK, JDBC and SLF4J only; framework glue lives in the starter.
 */
package dev.once;
