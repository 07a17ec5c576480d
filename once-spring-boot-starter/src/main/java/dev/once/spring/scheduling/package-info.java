/**
 * The starter's background jobs: {@link dev.once.spring.scheduling.PeriodicTask} runs one job (a
 * purge, a gauge refresh, the outbox's load check) on a daemon thread of its own, and runs a purge
 * in batches that keep pace with the writes. Depends on the JDK alone, so that the auto-
 * configuration and every capability package (inbox, metrics, outbox) can use it without using each
 * other.
 */
package dev.once.spring.scheduling;
