/**
 * Network faults between the processes of a run: a {@link dev.once.verify.network.FaultProxy} per
 * client and dependency that refuses, resets, blackholes or delays connections, and the {@link
 * dev.once.verify.network.Network} of them, which partitions one client from one dependency.
 * Depends on nothing else of the verifier.
 */
package dev.once.verify.network;
