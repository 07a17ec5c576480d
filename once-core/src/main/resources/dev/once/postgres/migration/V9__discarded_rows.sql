-- Once: discarded rows. An operator discards a dead row that must never be delivered (a message
-- whose effect is obsolete, or was applied by hand): it becomes 'discarded', terminal like
-- 'delivered' for every rule that orders an aggregate's rows (the claim's "no earlier undelivered
-- row", the append's hold), and the rows held behind it are released, to be delivered in order.
-- Its delivered_at is when it left the backlog; it is kept and purged with the delivered rows.
ALTER TABLE once.outbox DROP CONSTRAINT outbox_state_check;
ALTER TABLE once.outbox ADD CONSTRAINT outbox_state_check
    CHECK (state IN ('pending', 'delivered', 'dead', 'discarded'));

-- The per-aggregate rule's index and the purge's index, now with the discarded state.
DROP INDEX once.outbox_aggregate_idx;
CREATE INDEX outbox_aggregate_idx ON once.outbox (aggregate_id, id)
    WHERE state NOT IN ('delivered', 'discarded');
DROP INDEX once.outbox_delivered_idx;
CREATE INDEX outbox_delivered_idx ON once.outbox (delivered_at)
    WHERE state IN ('delivered', 'discarded');

-- As in V7, with a discarded row finished like a delivered one.
CREATE OR REPLACE FUNCTION once.outbox_lock_aggregate(p_namespace integer, p_aggregate text)
    RETURNS boolean
    LANGUAGE plpgsql VOLATILE AS
$$
BEGIN
    PERFORM pg_advisory_xact_lock(p_namespace, hashtext(p_aggregate));
    RETURN EXISTS (SELECT 1
                     FROM once.outbox e
                    WHERE e.aggregate_id = p_aggregate
                      AND e.state NOT IN ('delivered', 'discarded')
                      AND (e.state = 'dead' OR e.held));
END;
$$;

-- Moves a dead row to discarded, under its aggregate's lock, and releases the held rows of its
-- aggregate (a dead row is the only reason they are held: the rows behind a dead row are never
-- attempted, so none of them dies). Returns whether it discarded the row.
CREATE FUNCTION once.outbox_discard(p_namespace integer, p_id bigint, p_now timestamptz)
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
       SET state = 'discarded', delivered_at = p_now, claim_id = NULL, lease_until = NULL
     WHERE id = p_id AND state = 'dead';
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    UPDATE once.outbox SET held = false WHERE aggregate_id = v_aggregate AND held;
    RETURN true;
END;
$$;
