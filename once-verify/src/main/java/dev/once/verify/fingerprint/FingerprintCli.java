package dev.once.verify.fingerprint;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.cli.Cli;
import dev.once.verify.cli.Subcommand;
import dev.once.verify.cli.UsageException;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fingerprint}'s command line: one request, maybe a second body, and flags. */
@Command(
    name = "fingerprint",
    description = {
      "A request's canonical body and fingerprint, as Once computes them; given a second body,"
          + " whether a retry with it under the same key is replayed or refused with 422, and where"
          + " the bodies differ."
    },
    footer = {
      "Exit: 0 printed (two requests: same fingerprint), 1 different fingerprints or a body Once"
          + " refuses, 2 wrong arguments."
    })
public final class FingerprintCli extends Subcommand<FingerprintOptions> {
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  @Parameters(index = "0", paramLabel = "METHOD", description = "the request's method, e.g. POST")
  String method;

  @Parameters(
      index = "1",
      paramLabel = "PATH",
      description = "the request's path with query, as sent, e.g. '/v1/payments'")
  String path;

  @Parameters(
      index = "2",
      paramLabel = "BODY",
      description = "the body: a file, - for standard input, /dev/null for none")
  String body;

  @Parameters(
      index = "3",
      arity = "0..1",
      paramLabel = "OTHER_BODY",
      description = "a second body: is a retry with it under the same key replayed or refused?")
  String otherBody;

  @Option(
      names = "--other-method",
      paramLabel = "<method>",
      description = "the second request's method (default: METHOD)")
  String otherMethod;

  @Option(
      names = "--other-path",
      paramLabel = "<path>",
      description = "the second request's path with query (default: PATH)")
  String otherPath;

  @Option(
      names = "--content-type",
      paramLabel = "<type>",
      description = "the Content-Type (default application/json; none: no header)")
  String contentType = "application/json";

  @Option(
      names = "--max-depth",
      paramLabel = "<n>",
      description =
          "the deepest JSON nesting read (default "
              + JsonCanonicalizer.DEFAULT_MAX_DEPTH
              + ", once.idempotency.http.max-json-depth)")
  String maxDepth = Integer.toString(JsonCanonicalizer.DEFAULT_MAX_DEPTH);

  /** The options these arguments give, or a usage error naming the bad one. */
  @Override
  public FingerprintOptions options() throws UsageException {
    return new FingerprintOptions(
        method(method),
        path(path),
        body,
        Optional.ofNullable(otherBody),
        otherMethod == null ? Optional.empty() : Optional.of(method(otherMethod)),
        otherPath == null ? Optional.empty() : Optional.of(path(otherPath)),
        contentType.equals("none") ? Optional.empty() : Optional.of(contentType),
        depth(maxDepth));
  }

  private static String method(String value) throws UsageException {
    if (!TOKEN.matcher(value).matches()) {
      throw new UsageException("not an HTTP method: " + value);
    }
    return value;
  }

  private static String path(String value) throws UsageException {
    if (!value.startsWith("/") || value.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
      throw new UsageException(
          "the path must start with / and hold no spaces or control characters, as sent: " + value);
    }
    return value;
  }

  private static int depth(String value) throws UsageException {
    return Cli.integer(
        value, 1, 10_000, "--max-depth must be a whole number from 1 to 10000: " + value);
  }

  @Override
  protected int run(FingerprintOptions options) throws Exception {
    return new FingerprintCommand(options, System.out, System.in).run();
  }
}
