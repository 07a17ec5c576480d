/**
 * The outbox for operators, under {@code /admin/v1/outbox} and the admin token: the backlog, the
 * age of the oldest due row and the number of dead rows; the dead rows, paged, with type,
 * aggregate, attempts and last error (never the payload); and the requeue of one dead row with a
 * fresh retry budget. The runbook: docs/outbox.md.
 *
 * <p>Guarantees: a requeue is naturally idempotent: a second one finds no dead row and answers 404,
 * and the row is delivered once either way. A requeue of a row appended longer ago than the inbox
 * retention is refused with 409 {@code requeue-past-retention} and changes nothing unless forced
 * ({@code force=true}), since its consumers' inbox records may be gone and a second delivery could
 * apply its effect again; every requeue's answer carries that caution.
 *
 * <p>Depends on {@code dev.once.outbox} (its admin), {@code dev.once.spring} (the inbox retention),
 * {@code dev.once.shop.problems} and {@code dev.once.shop.openapi}; no package depends on it.
 */
package dev.once.shop.outbox;
