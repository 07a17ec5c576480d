package dev.once.idempotency;

import java.sql.Connection;

/**
 * The unit of work of an idempotent request, run by {@link IdempotencyEngine#execute} inside the
 * transaction that holds the request's key.
 *
 * @param <E> the checked exception the handler may throw ({@link RuntimeException} for none)
 */
@FunctionalInterface
public interface IdempotentHandler<E extends Exception> {
  /**
   * Does the request's work and says what to answer. Every write that must take effect at most once
   * goes through {@code connection} (or, under a framework, through whatever joins its
   * transaction); it commits with the key's answer or not at all. The handler must neither commit
   * nor roll back nor close the connection. An exception rolls everything back (the key stays free)
   * and leaves {@link IdempotencyEngine#execute} as it is.
   *
   * @param connection the transaction's connection, auto-commit off
   * @return the answer, never {@code null} (a {@code null} rolls back and is thrown out of {@link
   *     IdempotencyEngine#execute} as an {@link IllegalStateException})
   */
  HandlerAnswer handle(Connection connection) throws E;
}
