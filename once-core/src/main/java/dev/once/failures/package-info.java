/**
 * What a database failure means for its caller: {@link dev.once.failures.TransientFailures} tells a
 * failure that a retry of the whole transaction may cure from one that will fail again, by SQLSTATE
 * and standard JDBC exception types only, and names its condition for a log line. The one
 * classification that the core's stores and relay, the starter, the Kafka transport and the
 * applications on them share. Depends on the JDK alone, so every other package may use it.
 */
package dev.once.failures;
