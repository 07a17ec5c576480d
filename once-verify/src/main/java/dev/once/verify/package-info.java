/**
 * once-verify, the proof: {@link dev.once.verify.Main} is the entry point of {@code java -jar
 * once-verify.jar <subcommand>} and holds nothing else. Each subcommand lives in its own package
 * ({@code bench}, {@code chaos}, {@code check}, {@code fingerprint}, {@code kafka}); what they
 * share is in {@code cli}, {@code http}, {@code json}, {@code load}, {@code report}, {@code stats}
 * and {@code system}. Exit codes: 0 when what was checked holds, 1 when it does not, 2 for a usage
 * error. No package uses one that uses it back (PackageCyclesTest).
 */
package dev.once.verify;
