-- Invariant outbox-no-dead: one row per violation, its id in the only column.
--
-- 4b. No outbox row is dead: a dead row is an event the relay gave up on, an effect that will
-- never happen unless an operator replays it (a warning only under once-verify's --allow-dead,
-- for runs that inject poison messages on purpose).
SELECT id::text FROM once.outbox WHERE state = 'dead'
