/**
 * {@code chaos}: the guarantees under SIGKILLs of the shops, of psp-simulator and (with {@code
 * --kafka}) of the broker, and under injected provider faults. A seeded workload of concurrent
 * clients retries every intent with its key until it has an answer; once the run is quiet, every
 * {@link dev.once.verify.chaos.Check} compares what the clients were told with what the shop, its
 * database, the provider and the topics hold. A run passes only when every check holds and every
 * planned kill happened; what a run started is stopped when it ends, also on failure.
 */
package dev.once.verify.chaos;
