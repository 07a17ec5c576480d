-- Once: the relay's claim on outbox rows, and the indexes its queries walk.
-- A relay claims a due row by writing its claim_id and a lease; it records the outcome with a
-- compare-and-set on (id, claim_id), so a relay whose lease ran out cannot overwrite the outcome of
-- the relay that took the row over.
ALTER TABLE once.outbox
    ADD COLUMN claim_id    uuid,
    ADD COLUMN lease_until timestamptz;

-- Ordering per aggregate: a row is due only when no earlier row of its aggregate is undelivered.
CREATE INDEX outbox_aggregate_idx ON once.outbox (aggregate_id, id) WHERE state <> 'delivered';

-- The purge deletes delivered rows oldest first; operators list dead rows by id.
CREATE INDEX outbox_delivered_idx ON once.outbox (delivered_at) WHERE state = 'delivered';
CREATE INDEX outbox_dead_idx ON once.outbox (id) WHERE state = 'dead';

-- A row is updated about three times in its short life (claim, outcome, sometimes a retry). Free
-- room on its page lets the claim, which changes no indexed column, stay a heap-only update that
-- writes no index entry; the table holds only the backlog and recent rows, so the room is cheap.
ALTER TABLE once.outbox SET (fillfactor = 70);
