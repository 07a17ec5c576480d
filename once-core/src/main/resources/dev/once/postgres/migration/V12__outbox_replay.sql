-- Once: replays from the archive (V11). A replay appends copies of archived delivered rows (same
-- message id, type, aggregate, payload) to the outbox, to be delivered through the normal
-- transport: a consumer that took a message skips it by its inbox, a consumer added since takes it,
-- and a replay for one consumer first forgets that consumer's inbox records of those messages.
-- Each replay is recorded here, by the id its requester chose: a request sent twice finds its
-- record and appends nothing a second time.
CREATE TABLE once.outbox_replay (
    id           uuid        PRIMARY KEY,
    type         text        NOT NULL CHECK (length(type) BETWEEN 1 AND 200),
    from_at      timestamptz NOT NULL,
    to_at        timestamptz NOT NULL,
    aggregate_id text        CHECK (length(aggregate_id) BETWEEN 1 AND 255),
    consumer     text        CHECK (length(consumer) BETWEEN 1 AND 200),
    requested_by text        NOT NULL CHECK (length(requested_by) BETWEEN 1 AND 200),
    requested_at timestamptz NOT NULL,
    rows         bigint      NOT NULL DEFAULT 0,
    forgotten    bigint      NOT NULL DEFAULT 0,
    CHECK (from_at < to_at)
);

CREATE INDEX outbox_replay_requested_at_idx ON once.outbox_replay (requested_at);
