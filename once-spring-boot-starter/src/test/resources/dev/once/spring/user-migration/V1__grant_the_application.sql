-- An application's own migration, run by Boot's Flyway as the schema owner, that grants the role the
-- application connects as (the placeholder application_role), as the shop's afterMigrate.sql does.
CREATE TABLE user_note (id int PRIMARY KEY, granted_to text NOT NULL);
INSERT INTO user_note VALUES (1, '${application_role}');
DO
$$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', '${flyway:defaultSchema}', '${application_role}');
    EXECUTE format('GRANT SELECT ON user_note TO %I', '${application_role}');
END;
$$;
