-- Shop: the ledger guards itself (G4), whoever writes.
--
-- Before this version each statement that moved money updated account.balance and inserted the
-- journal row itself, so the pairing "balance moves only with its journal row" was kept by the
-- application's SQL, and anyone with the application's credentials could UPDATE a balance alone.
-- From here on:
--   * the application role has no UPDATE on account at all (see afterMigrate.sql); a balance moves
--     only through this trigger, which every journal insert fires: balance and row cannot part;
--   * the trigger takes the account's row lock and only then numbers the row (seq), so per account
--     seq order is commit order and a cursor (seq > :after) never skips a row that commits late;
--   * a movement that would take the balance below zero inserts nothing (the trigger returns NULL),
--     the same "no row" answer the previous conditional UPDATE gave; CHECK (balance >= 0) stays as
--     the last line of defence;
--   * every guard trigger fires ALWAYS, even under session_replication_role = replica (which only a
--     superuser may set anyway).
-- The function runs as the schema owner (SECURITY DEFINER) with a fixed search_path that puts
-- pg_temp last, so a caller cannot divert it to a temporary table of its own.

-- seq was an identity, which PostgreSQL fills before BEFORE triggers run, that is before the row
-- lock is taken. It is now assigned by the trigger, from a sequence only the owner can use.
ALTER TABLE operation ALTER COLUMN seq DROP IDENTITY;
CREATE SEQUENCE operation_seq AS bigint OWNED BY operation.seq;
SELECT setval('operation_seq', COALESCE((SELECT max(seq) FROM operation), 0) + 1, false);

CREATE FUNCTION operation_apply_to_balance() RETURNS trigger
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path = ${flyway:defaultSchema}, pg_temp
AS
$$
BEGIN
    UPDATE account
       SET balance = balance + NEW.amount
     WHERE id = NEW.account_id
       AND balance + NEW.amount >= 0
    RETURNING balance INTO NEW.balance_after;
    IF NOT FOUND THEN
        -- Missing account or not enough money: no journal row, no balance change.
        RETURN NULL;
    END IF;
    NEW.seq := nextval('operation_seq');
    RETURN NEW;
END;
$$;
REVOKE ALL ON FUNCTION operation_apply_to_balance() FROM PUBLIC;

CREATE TRIGGER operation_apply_to_balance
    BEFORE INSERT ON operation
    FOR EACH ROW EXECUTE FUNCTION operation_apply_to_balance();

ALTER TABLE operation ENABLE ALWAYS TRIGGER operation_apply_to_balance;
ALTER TABLE operation ENABLE ALWAYS TRIGGER operation_no_update_or_delete;
ALTER TABLE operation ENABLE ALWAYS TRIGGER operation_no_truncate;
