/**
 * What every capability (accounts, payments, clients) needs to persist its rows the same way: the
 * opaque ids they are keyed by ({@link dev.once.shop.persistence.Ids}), the instants of their
 * {@code timestamptz} columns ({@link dev.once.shop.persistence.Timestamps}), and the reading of a
 * failed statement into the problem a client sees ({@link
 * dev.once.shop.persistence.DatabaseErrors}). Named for the database rows it serves, not for the
 * HTTP layer that used to hold it; the embedded server itself is the once-embedded-postgres
 * module's ({@code dev.once.embedded}).
 */
package dev.once.shop.persistence;
