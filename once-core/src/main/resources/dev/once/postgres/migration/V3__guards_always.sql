-- Once: the commit-time key check fires whatever session_replication_role says. "replica" mode
-- (which only a superuser may set) would otherwise switch it off, and a key could be committed
-- still in progress.
ALTER TABLE once.idempotency_key ENABLE ALWAYS TRIGGER idempotency_key_completed_at_commit;
