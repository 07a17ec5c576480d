/**
 * {@code check}: the shop's invariants over a whole database, read-only, in one {@code REPEATABLE
 * READ READ ONLY} transaction so that every invariant sees one snapshot. It never writes; exit 1 on
 * any violation.
 */
package dev.once.verify.check;
