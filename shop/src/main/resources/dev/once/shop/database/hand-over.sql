-- Hands everything of the shop and of Once in a database of the single-role layout to the schema
-- owner: every table, sequence (unless owned by a column), view and function of schemas public and
-- once, and schema once. Run by the superuser, once, when EmbeddedDatabaseRoles upgrades it.
DO $$
DECLARE
    object record;
BEGIN
    FOR object IN
        SELECT c.oid::regclass AS name FROM pg_class c
        WHERE c.relnamespace IN ('public'::regnamespace, to_regnamespace('once'))
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
          AND c.relowner <> 'shop_owner'::regrole
    LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO shop_owner', object.name);
    END LOOP;
    FOR object IN
        SELECT c.oid::regclass AS name FROM pg_class c
        WHERE c.relnamespace IN ('public'::regnamespace, to_regnamespace('once'))
          AND c.relkind = 'S' AND c.relowner <> 'shop_owner'::regrole
          AND NOT EXISTS (SELECT 1 FROM pg_depend d
                          WHERE d.objid = c.oid AND d.deptype IN ('a', 'i'))
    LOOP
        EXECUTE format('ALTER SEQUENCE %s OWNER TO shop_owner', object.name);
    END LOOP;
    FOR object IN
        SELECT p.oid::regprocedure AS name FROM pg_proc p
        WHERE p.pronamespace IN ('public'::regnamespace, to_regnamespace('once'))
    LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO shop_owner', object.name);
    END LOOP;
    IF to_regnamespace('once') IS NOT NULL THEN
        ALTER SCHEMA once OWNER TO shop_owner;
    END IF;
END
$$
