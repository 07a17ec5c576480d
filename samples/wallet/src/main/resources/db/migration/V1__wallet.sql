-- The wallet's own tables (Once's are in schema once, migrated by the starter). Flyway runs as the
-- owner; the starter fills the placeholder application_role with the role the application connects
-- as (the same role where there is only one, and a grant to oneself changes nothing).
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

GRANT SELECT, INSERT, UPDATE ON wallet TO ${application_role};
GRANT SELECT, INSERT ON credit_history TO ${application_role};
