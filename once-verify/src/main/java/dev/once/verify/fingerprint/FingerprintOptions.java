package dev.once.verify.fingerprint;

import dev.once.verify.cli.Cli;
import dev.once.verify.cli.UsageException;
import java.util.Optional;

/**
 * Arguments of {@code fingerprint}: {@code METHOD PATH BODY [OTHER_BODY]} and flags.
 *
 * @param method the request's method
 * @param path the raw path with query, as sent
 * @param body the body file, {@code -} for standard input
 * @param otherBody a second body file to compare with
 * @param otherMethod the second request's method, if not {@code method}
 * @param otherPath the second request's path, if not {@code path}
 * @param contentType the {@code Content-Type}, empty for none
 * @param maxDepth the deepest JSON nesting the filter reads ({@code
 *     once.idempotency.http.max-json-depth})
 */
public record FingerprintOptions(
    String method,
    String path,
    String body,
    Optional<String> otherBody,
    Optional<String> otherMethod,
    Optional<String> otherPath,
    Optional<String> contentType,
    int maxDepth) {
  /** Whether a second request differs from the first in its method or path only. */
  boolean comparesRequestLine() {
    return otherMethod.isPresent() || otherPath.isPresent();
  }

  /** {@code fingerprint --help}: the arguments and flags. */
  public static String usage() {
    return Cli.usage(new FingerprintCli());
  }

  /** Parses the arguments after {@code fingerprint} ({@link FingerprintCli}). */
  public static FingerprintOptions parse(String[] args) throws UsageException {
    return Cli.parse(new FingerprintCli(), args).options();
  }
}
