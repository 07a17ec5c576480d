/**
 * A private, supervised PostgreSQL for development and tests, with no Spring: {@link
 * dev.once.embedded.EmbeddedPostgresServer} runs PostgreSQL from the {@code io.zonky.test} binaries
 * (Maven Central) with zonky's {@code EmbeddedPostgres}, one server per data directory and JVM,
 * whose data survives restarts (and a {@code kill -9} of the JVM: {@link
 * dev.once.embedded.LeftoverPostmaster}); {@link dev.once.embedded.EmbeddedPostgresServer#database}
 * gives it a database with a schema owner and an application role ({@link
 * dev.once.embedded.EmbeddedDatabase}). Other local users get nothing from it: it listens on
 * localhost only, without a Unix-domain socket; every connection needs a password (SCRAM-SHA-256)
 * that only the owner can read; the data folder (passwords and log included) and the unpacked
 * binaries are the owner's only. Not for production data. The Spring Boot default built on it is
 * {@code dev.once.embedded.spring}.
 */
package dev.once.embedded;
