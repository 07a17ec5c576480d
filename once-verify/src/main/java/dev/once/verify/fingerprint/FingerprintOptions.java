package dev.once.verify.fingerprint;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

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
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** Whether a second request differs from the first in its method or path only. */
  boolean comparesRequestLine() {
    return otherMethod.isPresent() || otherPath.isPresent();
  }

  public static String usage() {
    return "fingerprint arguments: METHOD PATH BODY [OTHER_BODY]\n"
        + "  METHOD PATH BODY          the request: e.g. POST '/v1/payments' body.json (BODY: a file,\n"
        + "                            - for standard input, /dev/null for none); prints the body's\n"
        + "                            canonical form and the request's fingerprint, as Once computes them\n"
        + "  OTHER_BODY                a second body: says whether a retry with it under the same key is\n"
        + "                            replayed or refused with 422, and where the bodies differ\n"
        + "  --other-method <method>   the second request's method (default: METHOD)\n"
        + "  --other-path <path>       the second request's path with query (default: PATH)\n"
        + "  --content-type <type>     the Content-Type (default application/json; none: no header)\n"
        + "  --max-depth <n>           the deepest JSON nesting read (default "
        + JsonCanonicalizer.DEFAULT_MAX_DEPTH
        + ", once.idempotency.http.max-json-depth)\n"
        + "  exit status: 0 printed (two requests: same fingerprint), 1 different fingerprints or a\n"
        + "  body Once refuses, 2 wrong arguments\n";
  }

  public static FingerprintOptions parse(String[] args) throws UsageException {
    List<String> positional = new ArrayList<>();
    Optional<String> otherMethod = Optional.empty();
    Optional<String> otherPath = Optional.empty();
    Optional<String> contentType = Optional.of("application/json");
    int maxDepth = JsonCanonicalizer.DEFAULT_MAX_DEPTH;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--") || arg.equals("-")) {
        positional.add(arg);
        continue;
      }
      if (i + 1 >= args.length) {
        throw new UsageException(arg + " needs a value");
      }
      String value = args[++i];
      switch (arg) {
        case "--other-method" -> otherMethod = Optional.of(method(value));
        case "--other-path" -> otherPath = Optional.of(path(value));
        case "--content-type" ->
            contentType = value.equals("none") ? Optional.empty() : Optional.of(value);
        case "--max-depth" -> maxDepth = depth(value);
        default -> throw new UsageException("unknown fingerprint flag: " + arg);
      }
    }
    if (positional.size() < 3 || positional.size() > 4) {
      throw new UsageException(
          "fingerprint needs METHOD PATH BODY [OTHER_BODY], got "
              + positional.size()
              + " arguments");
    }
    return new FingerprintOptions(
        method(positional.get(0)),
        path(positional.get(1)),
        positional.get(2),
        positional.size() == 4 ? Optional.of(positional.get(3)) : Optional.empty(),
        otherMethod,
        otherPath,
        contentType,
        maxDepth);
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
    try {
      int depth = Integer.parseInt(value);
      if (depth >= 1 && depth <= 10_000) {
        return depth;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new UsageException("--max-depth must be a whole number from 1 to 10000: " + value);
  }
}
