/**
 * The shop's default database: an embedded PostgreSQL server, run by zonky's {@code
 * EmbeddedPostgres} with the {@code io.zonky.test} binaries, whose data survives restarts in a
 * local folder. Other local users get nothing from it: it listens on localhost only, without a
 * Unix-domain socket; every connection needs a password (SCRAM-SHA-256) that only the owner can
 * read; the data folder (passwords and log included) and the unpacked binaries are the owner's
 * only.
 */
package dev.once.shop.database;
