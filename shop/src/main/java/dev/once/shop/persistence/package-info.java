/**
 * What every capability (accounts, payments, clients) needs to persist its rows the same way: the
 * opaque ids they are keyed by ({@link dev.once.shop.persistence.Ids}), the instants of their
 * {@code timestamptz} columns ({@link dev.once.shop.persistence.Timestamps}), the text a column can
 * store ({@link dev.once.shop.persistence.Text}, checked on a request field so that a bad value is
 * a 422 and never a database error), and the reading of a failed statement into the problem a
 * client sees ({@link dev.once.shop.persistence.DatabaseErrors}, in the vocabulary of {@code
 * dev.once.shop.problems}). Named for the database rows it serves, not for the HTTP layer, which it
 * never uses; the embedded server itself is the once-embedded-postgres module's ({@code
 * dev.once.embedded}).
 */
package dev.once.shop.persistence;
