/**
 * What the commands share to run the shop as deployed: its private PostgreSQL with the shop's two
 * roles ({@link dev.once.verify.harness.BenchDatabase}, {@link dev.once.verify.harness.ShopLogin}),
 * the shop as a process of its own from its jar ({@link dev.once.verify.harness.ShopProcess}), a
 * Kafka broker as another ({@link dev.once.verify.harness.KafkaBroker}), its API for set-up ({@link
 * dev.once.verify.harness.ShopApi}), the bodies of orders ({@link
 * dev.once.verify.harness.OrderBodies}), an open-ended HTTP load on it that counts its answers by
 * kind and backs off on 503 ({@link dev.once.verify.harness.BackgroundLoad}; a measured scenario's
 * closed loop with percentiles is {@code load}'s), and the one shutdown hook that stops what a run
 * started ({@link dev.once.verify.harness.ShutdownHook}). {@code bench}, {@code relay}, {@code
 * chaos} and {@code kafka} build on it; it uses none of them.
 */
package dev.once.verify.harness;
