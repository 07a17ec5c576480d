/**
 * {@code fingerprint}: what Once computes for a request, with once-core's own code, and where two
 * bodies differ when they do not share a fingerprint. It reads only its arguments.
 */
package dev.once.verify.fingerprint;
