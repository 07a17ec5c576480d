-- Once: the key's row is written once, completed with its answer, at the end of the claiming
-- transaction. The claim writes nothing: the transaction's advisory lock on the scope marks the key
-- in flight. So the commit-time check only concerns rows written in progress, which this version
-- never writes (an older version of the library still does during a rolling upgrade, and keeps its
-- protection). The WHEN clause is evaluated as the row is written: a completed row queues no
-- deferred trigger event and costs no check at commit.
DROP TRIGGER idempotency_key_completed_at_commit ON once.idempotency_key;

CREATE CONSTRAINT TRIGGER idempotency_key_completed_at_commit
    AFTER INSERT OR UPDATE ON once.idempotency_key
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW
    WHEN (NEW.state = 'in_progress')
    EXECUTE FUNCTION once.idempotency_key_must_be_completed();

-- Fires whatever session_replication_role says, as V3 made the trigger it replaces.
ALTER TABLE once.idempotency_key ENABLE ALWAYS TRIGGER idempotency_key_completed_at_commit;

-- Raised by the statement that stores a key's answer and commits in one round trip, when it wrote
-- nothing (another request's answer is there, or another transaction holds the key): the error
-- aborts the transaction, so the COMMIT sent with it rolls back instead of committing.
CREATE FUNCTION once.idempotency_key_taken() RETURNS void
    LANGUAGE plpgsql AS
$$
BEGIN
    RAISE EXCEPTION 'the idempotency key is no longer held by this transaction'
        USING ERRCODE = 'OI002',
              HINT = 'Another request stored or holds the key; roll back and claim again.';
END;
$$;

-- The claim's read and lock. The key is read; only if there is none is the scope's advisory lock
-- tried, and once it is held the key is read again. This function is VOLATILE, so under READ
-- COMMITTED each of its queries takes a fresh snapshot: the second read sees a key that a request
-- committed after the first read and before it released the lock this claim then took. (The
-- statement that stores the answer catches that case too, but only after the handler ran.)
-- locked: NULL when a committed key was found at once, else whether this transaction holds the lock.
CREATE FUNCTION once.idempotency_key_claim(p_client text, p_key text, p_lock bigint)
    RETURNS TABLE (fingerprint bytea, state text, status_code integer, content_type text,
                   location text, body bytea, expires_at timestamptz, locked boolean)
    LANGUAGE plpgsql VOLATILE AS
$$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        SELECT k.fingerprint, k.state, k.status_code, k.content_type, k.location, k.body,
               k.expires_at, NULL::boolean
          FROM once.idempotency_key k
         WHERE k.client_id = p_client AND k.idem_key = p_key;
    IF FOUND THEN
        RETURN;
    END IF;
    IF NOT pg_try_advisory_xact_lock(p_lock) THEN
        RETURN QUERY SELECT NULL::bytea, NULL::text, NULL::integer, NULL::text, NULL::text,
                            NULL::bytea, NULL::timestamptz, false;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT k.fingerprint, k.state, k.status_code, k.content_type, k.location, k.body,
               k.expires_at, true
          FROM once.idempotency_key k
         WHERE k.client_id = p_client AND k.idem_key = p_key;
    IF NOT FOUND THEN
        RETURN QUERY SELECT NULL::bytea, NULL::text, NULL::integer, NULL::text, NULL::text,
                            NULL::bytea, NULL::timestamptz, true;
    END IF;
END;
$$;
