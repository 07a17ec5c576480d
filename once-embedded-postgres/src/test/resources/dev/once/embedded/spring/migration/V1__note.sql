-- A user's own migration, for EmbeddedPostgresAutoConfigurationTest.
CREATE TABLE note (id int PRIMARY KEY);
