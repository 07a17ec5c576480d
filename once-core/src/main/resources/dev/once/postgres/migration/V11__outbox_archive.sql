-- Once: the archive of finished outbox rows. With the archive on, the statement that completes a
-- row moves it here (delete from once.outbox, insert here, one statement) instead of deleting it,
-- and a discarded row is moved by the relay's housekeeping. Partitioned by day of delivered_at
-- (UTC): retention drops whole partitions, never a bulk DELETE, so the archive does not bloat and
-- its retention costs no vacuum. The replay (issue 40) reads it by type and creation time.
--
-- Partitions are made ahead of time by once.outbox_archive_prepare and dropped by
-- once.outbox_archive_drop, both called by the relay's housekeeping. A partition is made as a plain
-- table and then attached, which takes SHARE UPDATE EXCLUSIVE on the archive: it never waits for,
-- nor blocks, the inserts of completions. Dropping one takes ACCESS EXCLUSIVE on the archive for a
-- moment, bounded by a lock time-out; appends to once.outbox never touch the archive at all.
CREATE TABLE once.outbox_archive (
    id           bigint      NOT NULL,
    message_id   uuid        NOT NULL,
    type         text        NOT NULL,
    aggregate_id text        NOT NULL,
    payload      jsonb       NOT NULL,
    state        text        NOT NULL CHECK (state IN ('delivered', 'discarded')),
    attempts     integer     NOT NULL,
    created_at   timestamptz NOT NULL,
    delivered_at timestamptz NOT NULL,
    last_error   text,
    traceparent  text,
    tracestate   text,
    PRIMARY KEY (delivered_at, id)
) PARTITION BY RANGE (delivered_at);

-- The replay's walk: one type's rows in creation order, within a window.
CREATE INDEX outbox_archive_type_idx ON once.outbox_archive (type, created_at, id);

-- Makes the missing day partitions from p_from for p_days days; returns how many it made. Runs with
-- the rights of the schema's owner (the application role may not create tables), serialised by an
-- advisory lock so that two relays starting at once do not race.
CREATE FUNCTION once.outbox_archive_prepare(p_namespace integer, p_from date, p_days integer)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS
$$
DECLARE
    v_made integer := 0;
    v_day  date;
    v_name text;
BEGIN
    IF p_days < 1 OR p_days > 4000 THEN
        RAISE EXCEPTION 'days must be 1 to 4000, but was %', p_days;
    END IF;
    PERFORM pg_advisory_xact_lock(p_namespace, hashtext('once.outbox_archive'));
    FOR i IN 0 .. p_days - 1 LOOP
        v_day := p_from + i;
        v_name := 'outbox_archive_' || to_char(v_day, 'YYYYMMDD');
        CONTINUE WHEN to_regclass('once.' || v_name) IS NOT NULL;
        EXECUTE format('CREATE TABLE once.%I (LIKE once.outbox_archive INCLUDING DEFAULTS'
                       ' INCLUDING CONSTRAINTS)', v_name);
        EXECUTE format('ALTER TABLE once.outbox_archive ATTACH PARTITION once.%I'
                       ' FOR VALUES FROM (%L) TO (%L)', v_name,
                       v_day::timestamp AT TIME ZONE 'UTC', (v_day + 1)::timestamp AT TIME ZONE 'UTC');
        v_made := v_made + 1;
    END LOOP;
    RETURN v_made;
END;
$$;

-- Drops the day partitions whose whole day is before p_before; returns how many it dropped. Waits
-- at most p_lock_timeout_ms for the archive's lock (a long replay read holds it off): what it could
-- not drop now it drops on a later call.
CREATE FUNCTION once.outbox_archive_drop(p_namespace integer, p_before date, p_lock_timeout_ms integer)
    RETURNS integer
    LANGUAGE plpgsql VOLATILE SECURITY DEFINER
    SET search_path = pg_catalog, pg_temp AS
$$
DECLARE
    v_dropped integer := 0;
    v_name    text;
BEGIN
    PERFORM pg_advisory_xact_lock(p_namespace, hashtext('once.outbox_archive'));
    PERFORM set_config('lock_timeout', p_lock_timeout_ms::text, true);
    FOR v_name IN
        SELECT c.relname
          FROM pg_inherits i
          JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'once.outbox_archive'::regclass
           AND c.relname ~ '^outbox_archive_[0-9]{8}$'
           AND to_date(substr(c.relname, 16), 'YYYYMMDD') < p_before
         ORDER BY c.relname
    LOOP
        EXECUTE format('DROP TABLE once.%I', v_name);
        v_dropped := v_dropped + 1;
    END LOOP;
    RETURN v_dropped;
END;
$$;

-- Both run with the owner's rights: only the roles granted them (afterMigrate.sql) may call them.
REVOKE EXECUTE ON FUNCTION once.outbox_archive_prepare(integer, date, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION once.outbox_archive_drop(integer, date, integer) FROM PUBLIC;
