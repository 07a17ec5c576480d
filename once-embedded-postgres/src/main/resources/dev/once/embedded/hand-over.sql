-- Hands everything of the shop and of Once in a database of the single-role layout to the schema
-- owner (${owner}, replaced by EmbeddedDatabaseRoles): every table, view, sequence (unless owned by
-- a column) and function of schemas public and once, and schema once. Run by the superuser, once,
-- when EmbeddedDatabaseRoles upgrades it.
DO $$
DECLARE
    statement text;
BEGIN
    FOR statement IN
        SELECT format('ALTER %s %s OWNER TO ${owner}',
                      CASE WHEN c.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, c.oid::regclass)
        FROM pg_class c
        WHERE c.relnamespace IN ('public'::regnamespace, to_regnamespace('once'))
          AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
          AND c.relowner <> '${owner}'::regrole
          AND NOT EXISTS (SELECT 1 FROM pg_depend d
                          WHERE d.objid = c.oid AND c.relkind = 'S' AND d.deptype IN ('a', 'i'))
        UNION ALL
        SELECT format('ALTER ROUTINE %s OWNER TO ${owner}', p.oid::regprocedure)
        FROM pg_proc p
        WHERE p.pronamespace IN ('public'::regnamespace, to_regnamespace('once'))
    LOOP
        EXECUTE statement;
    END LOOP;
    IF to_regnamespace('once') IS NOT NULL THEN
        ALTER SCHEMA once OWNER TO ${owner};
    END IF;
END
$$
