-- The wallet's own tables (Once's are in schema once, migrated by the starter).
CREATE TABLE wallet (
    id      text          PRIMARY KEY,
    balance numeric(19, 2) NOT NULL
);

-- One row per credit, written by the credit-history listener. No unique key on purpose: the inbox,
-- not a constraint, keeps a redelivered event from being recorded twice.
CREATE TABLE credit_history (
    credit_id   uuid          NOT NULL,
    wallet      text          NOT NULL,
    amount      numeric(19, 2) NOT NULL,
    recorded_at timestamptz   NOT NULL DEFAULT now()
);
