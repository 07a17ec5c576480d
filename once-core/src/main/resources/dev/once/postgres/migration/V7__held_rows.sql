-- Once: rows held behind a dead row of their aggregate leave the claim's index. A row waits for
-- every earlier row of its aggregate (the claim's NOT EXISTS rule, which stays the rule); without
-- this, thousands of rows behind one dead row were walked and probed by every claim. Now such rows
-- are marked held and the claim walks an index without them, so a claim reads the same few buffers
-- however many rows are held back.
--
-- Who sets and clears "held", always under the aggregate's advisory lock (the lock appends take),
-- each decision in a statement that runs after the lock was taken (a fresh snapshot under READ
-- COMMITTED, as PL/pgSQL gives every statement of a VOLATILE function):
--   * burying a row holds every later pending row of its aggregate;
--   * an append is held if its aggregate has a dead or held row;
--   * requeueing a dead row releases every held row of its aggregate.
-- "held" is never the rule, only where the claim looks: a row wrongly not held is still refused by
-- the NOT EXISTS check; a held row is released when its dead row is requeued.
ALTER TABLE once.outbox ADD COLUMN held boolean NOT NULL DEFAULT false;

CREATE INDEX outbox_due_free_idx ON once.outbox (next_attempt_at, id)
    WHERE state = 'pending' AND NOT held;
DROP INDEX once.outbox_due_idx;

-- Takes the aggregate's transaction-scoped advisory lock, then says whether a new row of the
-- aggregate must be held. Called by the append, in the statement that inserts the row.
CREATE FUNCTION once.outbox_lock_aggregate(p_namespace integer, p_aggregate text)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
BEGIN
    PERFORM pg_advisory_xact_lock(p_namespace, hashtext(p_aggregate));
    RETURN EXISTS (SELECT 1
                     FROM once.outbox e
                    WHERE e.aggregate_id = p_aggregate
                      AND e.state <> 'delivered'
                      AND (e.state = 'dead' OR e.held));
END;
$$;

-- Takes the advisory lock of the aggregate of row p_id and returns that aggregate, or NULL if there
-- is no such row. The statements that follow it in the caller run after the lock was taken.
CREATE FUNCTION once.outbox_lock_aggregate_of(p_namespace integer, p_id bigint)
    RETURNS text
    LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
    v_aggregate text;
BEGIN
    SELECT aggregate_id INTO v_aggregate FROM once.outbox WHERE id = p_id;
    IF FOUND THEN
        PERFORM pg_advisory_xact_lock(p_namespace, hashtext(v_aggregate));
    END IF;
    RETURN v_aggregate;
END;
$$;

-- Moves a claimed row to dead if p_claim still holds it, and holds the later rows of its aggregate.
-- Returns whether it buried the row.
CREATE FUNCTION once.outbox_bury(p_namespace integer, p_id bigint, p_claim uuid, p_error text)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
    v_aggregate text := once.outbox_lock_aggregate_of(p_namespace, p_id);
BEGIN
    IF v_aggregate IS NULL THEN
        RETURN false;
    END IF;
    UPDATE once.outbox
       SET state = 'dead', last_error = p_error, claim_id = NULL, lease_until = NULL
     WHERE id = p_id AND claim_id = p_claim AND state = 'pending';
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    UPDATE once.outbox
       SET held = true
     WHERE aggregate_id = v_aggregate AND id > p_id AND state = 'pending' AND NOT held;
    RETURN true;
END;
$$;

-- Moves a dead row back to pending, due at p_now with its attempts reset, and releases the held
-- rows of its aggregate. Returns whether it requeued the row.
CREATE FUNCTION once.outbox_requeue(p_namespace integer, p_id bigint, p_now timestamptz)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
DECLARE
    v_aggregate text := once.outbox_lock_aggregate_of(p_namespace, p_id);
BEGIN
    IF v_aggregate IS NULL THEN
        RETURN false;
    END IF;
    UPDATE once.outbox
       SET state = 'pending', attempts = 0, next_attempt_at = p_now, claim_id = NULL,
           lease_until = NULL
     WHERE id = p_id AND state = 'dead';
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    UPDATE once.outbox SET held = false WHERE aggregate_id = v_aggregate AND held;
    RETURN true;
END;
$$;
