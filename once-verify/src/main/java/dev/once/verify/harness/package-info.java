/**
 * What the commands share to run the shop as deployed: its private PostgreSQL with the shop's two
 * roles ({@link dev.once.verify.harness.BenchDatabase}, {@link dev.once.verify.harness.ShopLogin}),
 * the shop as a process of its own from its jar ({@link dev.once.verify.harness.ShopProcess}), its
 * API for set-up ({@link dev.once.verify.harness.ShopApi}), the bodies of orders ({@link
 * dev.once.verify.harness.OrderBodies}), and the one shutdown hook that stops what a run started
 * ({@link dev.once.verify.harness.ShutdownHook}). {@code bench}, {@code relay} and {@code chaos}
 * build on it; it uses none of them.
 */
package dev.once.verify.harness;
