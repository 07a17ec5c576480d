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

-- The claim, in one call: reads the key; a live answer is returned at once, without a lock (a
-- replay). Otherwise (no key, or one past its retention) it tries the scope's advisory lock, which
-- marks the key in flight until the transaction ends, and only with the lock sets the transaction's
-- lease and reads the key again. This function is VOLATILE, so under READ COMMITTED each of its
-- queries takes a fresh snapshot: the second read sees a key that a request committed after the
-- first read and before it released the lock this claim then took. (The statement that stores the
-- answer catches that case too, but only after the handler ran.)
-- The lease (p_lease_ms) caps idle_in_transaction_session_timeout, statement_timeout and, where the
-- server has it (PostgreSQL 17 and later), transaction_timeout, for this transaction only; a
-- stricter value already in force is kept. transaction_timeout's timer is armed when the setting
-- first becomes non-zero in a transaction, so a looser value is set to 0 first, which re-arms it.
-- locked: NULL when a live key was found, else whether this transaction holds the scope's lock.
CREATE FUNCTION once.idempotency_key_claim(p_client text, p_key text, p_lock bigint,
                                           p_now_micros bigint, p_lease_ms bigint)
    RETURNS TABLE (fingerprint bytea, state text, status_code integer, content_type text,
                   location text, body bytea, expires_at timestamptz, locked boolean)
    LANGUAGE plpgsql VOLATILE AS
$$
#variable_conflict use_column
DECLARE
    v_now CONSTANT timestamptz := timestamptz 'epoch' + p_now_micros * interval '1 microsecond';
    v_name text;
    v_in_force numeric;
BEGIN
    SELECT k.fingerprint, k.state, k.status_code, k.content_type, k.location, k.body, k.expires_at
      INTO fingerprint, state, status_code, content_type, location, body, expires_at
      FROM once.idempotency_key k
     WHERE k.client_id = p_client AND k.idem_key = p_key;
    IF FOUND AND NOT (state = 'completed' AND expires_at <= v_now) THEN
        RETURN NEXT;
        RETURN;
    END IF;
    locked := pg_try_advisory_xact_lock(p_lock);
    IF NOT locked THEN
        RETURN NEXT;
        RETURN;
    END IF;
    FOREACH v_name IN ARRAY ARRAY['idle_in_transaction_session_timeout', 'statement_timeout',
                                  'transaction_timeout'] LOOP
        CONTINUE WHEN current_setting(v_name, true) IS NULL;
        v_in_force := extract(epoch FROM current_setting(v_name)::interval) * 1000;
        IF NOT (v_in_force > 0 AND v_in_force <= p_lease_ms) THEN
            PERFORM set_config(v_name, '0', true);
            PERFORM set_config(v_name, p_lease_ms || 'ms', true);
        END IF;
    END LOOP;
    SELECT k.fingerprint, k.state, k.status_code, k.content_type, k.location, k.body, k.expires_at
      INTO fingerprint, state, status_code, content_type, location, body, expires_at
      FROM once.idempotency_key k
     WHERE k.client_id = p_client AND k.idem_key = p_key;
    RETURN NEXT;
END;
$$;
