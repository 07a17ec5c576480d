-- Once: the inbox. One row per (message, consumer), inserted with ON CONFLICT DO NOTHING in the
-- transaction of the consumer's effect: the row exists if and only if the effect committed, so a
-- redelivered message finds it and is only acknowledged (G2).
CREATE TABLE once.inbox (
    message_id  uuid        NOT NULL,
    consumer    text        NOT NULL CHECK (length(consumer) BETWEEN 1 AND 200),
    received_at timestamptz NOT NULL,
    CONSTRAINT inbox_pk PRIMARY KEY (message_id, consumer)
);

-- The purge deletes records older than the retention, oldest first.
CREATE INDEX inbox_received_at_idx ON once.inbox (received_at);
