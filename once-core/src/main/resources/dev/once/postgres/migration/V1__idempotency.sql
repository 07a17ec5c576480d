-- Once: idempotency keys, one row per (client, key).
-- A row is inserted by the claim and completed in the SAME transaction as the request's effect, so a
-- committed row is always completed (enforced at commit, see the trigger below); 'in_progress' is
-- visible only inside the claiming transaction.
-- Schema "once" must exist: the starter's Flyway run creates it; if you apply these scripts in
-- your own migrations, run CREATE SCHEMA once; first.
CREATE TABLE once.idempotency_key (
    client_id     text        NOT NULL,
    idem_key      text        NOT NULL,
    fingerprint   bytea       NOT NULL CHECK (octet_length(fingerprint) = 32),
    state         text        NOT NULL CHECK (state IN ('in_progress', 'completed')),
    status_code   integer     CHECK (status_code BETWEEN 100 AND 599),
    content_type  text,
    location      text,
    body          bytea,
    created_at    timestamptz NOT NULL,
    completed_at  timestamptz,
    expires_at    timestamptz,
    CONSTRAINT idempotency_key_pk PRIMARY KEY (client_id, idem_key),
    CONSTRAINT idempotency_key_completed_has_answer CHECK (
        (state = 'completed') = (status_code IS NOT NULL AND body IS NOT NULL
                                 AND completed_at IS NOT NULL AND expires_at IS NOT NULL))
);

-- The purge walks expired keys in expiry order; in-progress rows have no expiry and are not indexed.
CREATE INDEX idempotency_key_expires_at_idx ON once.idempotency_key (expires_at)
    WHERE expires_at IS NOT NULL;

-- The protocol in the database: a key may only be committed completed. A transaction that claimed a
-- key and commits without storing its answer (a caller that splits claim and completion into
-- separate commits, as the design note did) fails at COMMIT instead of leaving the key stuck
-- in progress for ever. Deferred, so it checks the row as it stands when the transaction commits.
CREATE FUNCTION once.idempotency_key_must_be_completed() RETURNS trigger
    LANGUAGE plpgsql AS
$$
BEGIN
    IF EXISTS (SELECT 1 FROM once.idempotency_key
                WHERE client_id = NEW.client_id AND idem_key = NEW.idem_key
                  AND state = 'in_progress') THEN
        RAISE EXCEPTION 'an idempotency key may only be committed with its stored answer'
            USING ERRCODE = 'OI001',
                  HINT = 'Call IdempotencyEngine.complete in the claiming transaction, or roll it back.';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER idempotency_key_completed_at_commit
    AFTER INSERT OR UPDATE ON once.idempotency_key
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION once.idempotency_key_must_be_completed();
