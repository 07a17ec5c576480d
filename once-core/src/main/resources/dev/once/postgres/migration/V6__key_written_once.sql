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
