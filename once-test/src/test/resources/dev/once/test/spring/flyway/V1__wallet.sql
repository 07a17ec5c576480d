-- BootFlywayOnTestPostgresTest: an application's own migration, run by Boot's Flyway, that grants
-- the role the application connects as (the placeholder application_role, filled by the starter).
CREATE TABLE wallet (id int PRIMARY KEY, granted_to text NOT NULL);
INSERT INTO wallet VALUES (1, '${application_role}');
DO
$$
BEGIN
    IF '${application_role}' <> current_user THEN
        EXECUTE format('GRANT SELECT, INSERT ON wallet TO %I', '${application_role}');
    END IF;
END;
$$;
