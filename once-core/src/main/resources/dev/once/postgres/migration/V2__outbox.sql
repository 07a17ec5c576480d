-- Once: transactional outbox. A row is written in the same transaction as the business effect that
-- needs an outside call; a relay delivers it after commit. message_id is the stable idempotency key
-- the receiver sees on every attempt, so it applies the effect exactly once.
CREATE TABLE once.outbox (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id       uuid        NOT NULL,
    type             text        NOT NULL CHECK (length(type) BETWEEN 1 AND 200),
    aggregate_id     text        NOT NULL CHECK (length(aggregate_id) BETWEEN 1 AND 255),
    payload          jsonb       NOT NULL,
    state            text        NOT NULL DEFAULT 'pending'
                                 CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts         integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  timestamptz NOT NULL,
    created_at       timestamptz NOT NULL,
    delivered_at     timestamptz,
    last_error       text,
    CONSTRAINT outbox_message_id_uq UNIQUE (message_id)
);

-- The relay claims due pending rows in order; delivered and dead rows are not indexed.
CREATE INDEX outbox_due_idx ON once.outbox (next_attempt_at, id) WHERE state = 'pending';
