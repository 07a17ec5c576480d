/**
 * A primary and a standby PostgreSQL for {@code chaos --failover}: streaming replication between
 * two servers from the embedded binaries, synchronous or asynchronous, a SIGKILL of the primary
 * with the standby promoted, and the old primary rebuilt as the new standby from a base backup.
 */
package dev.once.verify.failover;
