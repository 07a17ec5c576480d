-- The wallet's own tables (Once's are in schema once, migrated by the starter).
--
-- TODO(issue 39): grant the application's role its rights here (GRANT ... TO the placeholder
-- application_role) once the starter fills it for the application's own migrations. Until then the
-- sample runs where it connects as the tables' owner (its tests), not on the embedded default's two
-- roles, where its role could not read these tables.
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
