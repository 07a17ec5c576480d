/**
 * {@code relay}: the outbox relay's benchmark and the Kafka transport's (issues 6, 21, 22, 23 and
 * 38; docs/benchmarks.md "Relay and provider", "Kafka transport" and "Batches"). The shop runs as
 * its own process from its jar, and a Kafka broker, when a phase needs one, as another; the
 * embedded PostgreSQL ({@code fsync} on) and the load generator run in the once-verify JVM. It
 * measures HTTP new payments with the relay on against the relay off, the outbox backlog and
 * commit-to-settled under that load; the relay alone draining pre-filled {@code provider.charge}
 * rows (rows/s, commits and table writes per delivered row); one hot aggregate; a drain of
 * pre-placed orders in process and through Kafka, with its counts per event; orders from place to
 * reserved, on either transport or both, hop by hop; commit to effect at a low load; the relay's
 * rate while a transaction holds the xmin horizon; how long after a SIGKILL a restarted shop has
 * delivered every row; and the key and inbox purges (one run timed with once-core's purge
 * statements from once-verify, then table sizes under sustained load with short retentions on the
 * shop). The result is a table of measure, value, goal and verdict, printed and written to
 * relay-&lt;time&gt;.md.
 */
package dev.once.verify.relay;
