/**
 * {@code bench}: the payment path's performance as deployed, the shop as its own process from its
 * jar on a private PostgreSQL with {@code fsync} on, and the load generator in this JVM. Every
 * number of a run is measured in that one run (ratios within a run, since the machine is shared);
 * CPU time of the shop, of PostgreSQL and of every other process is read at the window's edges, so
 * a report says how much of the machine the measure had. Also the shop's processes and logins that
 * {@code chaos} reuses ({@link dev.once.verify.harness.ShopProcess}, {@link
 * dev.once.verify.harness.BenchDatabase}).
 */
package dev.once.verify.bench;
