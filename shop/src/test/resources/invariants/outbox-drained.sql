-- Invariant outbox-drained: one row per violation, its id in the only column.
--
-- 4a. The outbox is drained, no row is still pending (the violations are the backlog): an
-- undelivered event is an effect the rest of the system has not seen yet, so after a run every
-- one must have been delivered.
SELECT id::text FROM once.outbox WHERE state = 'pending'
