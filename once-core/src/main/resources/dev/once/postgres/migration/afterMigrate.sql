-- Once: what the application role may do with Once's tables, set again after every migration run
-- (a Flyway callback). Migrations run as the schema owner; the application connects as the role in
-- ${application_role} (the starter finds it by asking the application's DataSource). When both are
-- the same role there is nothing to grant.
-- If you apply Once's scripts with your own tool, grant the same to your application role:
--   GRANT USAGE ON SCHEMA once TO app;
--   GRANT SELECT, INSERT, UPDATE, DELETE ON once.idempotency_key, once.outbox, once.inbox TO app;
--   GRANT SELECT, INSERT, DELETE ON once.outbox_pause TO app;
--   GRANT SELECT, INSERT ON once.outbox_archive TO app;
--   GRANT SELECT, INSERT, UPDATE ON once.outbox_replay TO app;
--   GRANT EXECUTE ON FUNCTION once.idempotency_key_claim(text, text, bigint, bigint, bigint),
--                             once.idempotency_key_taken(),
--                             once.outbox_lock_aggregate(integer, text),
--                             once.outbox_lock_aggregate_of(integer, bigint),
--                             once.outbox_bury(integer, bigint, uuid, text),
--                             once.outbox_requeue(integer, bigint, timestamptz),
--                             once.outbox_discard(integer, bigint, timestamptz),
--                             once.outbox_archive_prepare(integer, date, integer),
--                             once.outbox_archive_drop(integer, date, integer) TO app;
DO
$$
DECLARE
    app text := '${application_role}';
BEGIN
    IF app = '' OR app = current_user THEN
        RETURN;
    END IF;
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA once FROM %I', app);
    EXECUTE format('GRANT USAGE ON SCHEMA once TO %I', app);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON once.idempotency_key, once.outbox, once.inbox TO %I',
                   app);
    EXECUTE format('GRANT SELECT, INSERT, DELETE ON once.outbox_pause TO %I', app);
    EXECUTE format('GRANT SELECT, INSERT ON once.outbox_archive TO %I', app);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON once.outbox_replay TO %I', app);
    EXECUTE format('GRANT EXECUTE ON FUNCTION'
                   ' once.idempotency_key_claim(text, text, bigint, bigint, bigint),'
                   ' once.idempotency_key_taken(),'
                   ' once.outbox_lock_aggregate(integer, text),'
                   ' once.outbox_lock_aggregate_of(integer, bigint),'
                   ' once.outbox_bury(integer, bigint, uuid, text),'
                   ' once.outbox_requeue(integer, bigint, timestamptz),'
                   ' once.outbox_discard(integer, bigint, timestamptz),'
                   ' once.outbox_archive_prepare(integer, date, integer),'
                   ' once.outbox_archive_drop(integer, date, integer) TO %I', app);
END;
$$;
