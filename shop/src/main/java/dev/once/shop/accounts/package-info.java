/**
 * Accounts and their append-only ledger: {@code /v1/accounts} opens an account, reads it, pays in
 * (deposits) and pages through its journal, oldest first. {@link
 * dev.once.shop.accounts.AccountService} holds the operations, {@link
 * dev.once.shop.accounts.Account} and {@link dev.once.shop.accounts.Operation} (of an {@link
 * dev.once.shop.accounts.OperationKind}) what they return, and {@link dev.once.shop.accounts.Money}
 * the wire format of money: a JSON string of at most 16 integer and 4 fraction digits, never a
 * number, that fits its currency's ISO 4217 minor units, printed with exactly 4 fraction digits.
 *
 * <p>Guarantees (G4): journal rows are never updated or deleted, and corrections are new rows that
 * reference the original; money moves only by inserting a journal row, which the database's guard
 * trigger applies to the balance under the account's row lock in the same statement, so a balance
 * always equals the sum of its rows and never goes negative ({@link
 * dev.once.shop.accounts.InsufficientFundsException} otherwise, nothing written). Every statement
 * is scoped by client: another client's account behaves exactly like a missing one. Concurrency on
 * one account is serialized by the database's row lock, not in Java; at start the shop warns if it
 * connects with rights that could bypass the ledger.
 *
 * <p>Depends on {@code dev.once.shop.clients} and the shop's problems, persistence and OpenAPI
 * packages; payments, stock and orders use it.
 */
package dev.once.shop.accounts;
