-- Once: pausing a message type. An operator pauses a type (its provider is down for maintenance, its
-- consumer has a bug): its rows stay pending and due, appends go on, and no relay on any instance
-- claims them until the type is resumed. The state lives here, so every instance honours it from
-- its next claim.
--
-- The rule is the claim's test against once.outbox_pause (a primary-key probe per candidate row).
-- "paused" on a row is only where the claim looks, as "held" is (V7): a paused type's rows leave
-- outbox_due_free_idx, so a claim does not walk a paused backlog, however long the pause.
--   * pausing inserts the type here, then marks the type's pending and dead rows paused (a dead row
--     requeued during the pause stays paused);
--   * an append marks its row paused if its type is paused when the append runs;
--   * resuming deletes the type here, then clears the mark on the type's rows;
--   * a row marked paused whose type is not paused (an append that raced a resume) is cleared by
--     the relay's next housekeeping (outbox_paused_idx finds them).
-- A row wrongly not marked is still refused by the claim's test; a row wrongly marked is released
-- by the housekeeping.
CREATE TABLE once.outbox_pause (
    type      text        PRIMARY KEY CHECK (length(type) BETWEEN 1 AND 200),
    paused_at timestamptz NOT NULL,
    paused_by text        NOT NULL CHECK (length(paused_by) BETWEEN 1 AND 200),
    reason    text        CHECK (length(reason) <= 1000)
);

ALTER TABLE once.outbox ADD COLUMN paused boolean NOT NULL DEFAULT false;

CREATE INDEX outbox_paused_idx ON once.outbox (type, id) WHERE paused;

DROP INDEX once.outbox_due_free_idx;
CREATE INDEX outbox_due_free_idx ON once.outbox (next_attempt_at, id)
    WHERE state = 'pending' AND NOT held AND NOT paused;
