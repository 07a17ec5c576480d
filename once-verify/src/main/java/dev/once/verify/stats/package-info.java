/** Latency samples, percentiles and goals, computed from every sample (no sampling, no sketch). */
package dev.once.verify.stats;
