package dev.once.verify.fingerprint;

import dev.once.idempotency.Fingerprint;
import dev.once.json.JsonCanonicalizer;
import dev.once.json.JsonTooDeepException;
import dev.once.json.MalformedJsonException;
import dev.once.verify.cli.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code fingerprint}: shows a client developer what Once's filter computes for a request, the
 * canonical form of its body and its fingerprint, exactly as {@link Fingerprint#of} does; and,
 * given a second body (or method or path), whether a retry with it would be answered from the first
 * request's stored answer or refused with 422 {@code idempotency-key-reused}, and why: each place
 * where the canonical bodies differ, by JSON Pointer. Exit status: 0 printed (and, with two
 * requests, the same fingerprint), 1 different fingerprints or a body the filter refuses, 2 a wrong
 * command line or an unreadable file.
 */
public final class FingerprintCommand {
  private static final int SHOWN_DIFFERENCES = 20;

  private final FingerprintOptions options;
  private final PrintStream out;
  private final InputStream stdin;

  public FingerprintCommand(FingerprintOptions options, PrintStream out, InputStream stdin) {
    this.options = options;
    this.out = out;
    this.stdin = stdin;
  }

  /** One request as the filter sees it. */
  private record Request(String label, String method, String path, String source, byte[] body) {}

  /** What the filter computes for a request, or why it refuses the body. */
  private record Computed(
      Optional<String> canonical, Optional<Fingerprint> fingerprint, Optional<String> refusal) {}

  /** Prints what the options ask for and returns the exit status. */
  public int run() throws UsageException {
    Request first =
        new Request(
            "first", options.method(), options.path(), options.body(), read(options.body()));
    Optional<Request> second = Optional.empty();
    if (options.otherBody().isPresent() || options.comparesRequestLine()) {
      String source = options.otherBody().orElse(options.body());
      second =
          Optional.of(
              new Request(
                  "second",
                  options.otherMethod().orElse(options.method()),
                  options.otherPath().orElse(options.path()),
                  source,
                  source.equals(options.body()) ? first.body() : read(source)));
    }
    boolean json = Fingerprint.isJson(options.contentType().orElse(null));
    out.println(
        "content type  "
            + options.contentType().orElse("(none)")
            + (json
                ? ": JSON, hashed in its canonical form (RFC 8785, numbers by exact value)"
                : ": not JSON, the raw bytes are hashed"));
    Computed a = show(first, json);
    if (second.isEmpty()) {
      return a.refusal().isPresent() ? 1 : 0;
    }
    Computed b = show(second.get(), json);
    out.println();
    if (a.refusal().isPresent() || b.refusal().isPresent()) {
      out.println(
          "verdict       the filter refuses a body before it compares fingerprints (above)");
      return 1;
    }
    if (a.fingerprint().equals(b.fingerprint())) {
      out.println(
          "verdict       SAME fingerprint: a retry with the second request under the first's key"
              + " gets the first's answer again, with Idempotent-Replayed: true");
      if (!Arrays.equals(first.body(), second.get().body())) {
        out.println(
            "why           the bodies differ only in spelling that "
                + (json
                    ? "the canonical form removes: whitespace, member order, escapes, number"
                        + " spelling (1, 1.0 and 10e-1 are one value)"
                    : "does not exist: the bytes are equal"));
      }
      return 0;
    }
    out.println(
        "verdict       DIFFERENT fingerprints: a retry with the second request under the first's"
            + " key gets 422 idempotency-key-reused (send it under a new key if it is a new"
            + " intent)");
    out.println("why");
    for (String reason : reasons(first, second.get(), a, b, json)) {
      out.println("  " + reason);
    }
    return 1;
  }

  private Computed show(Request request, boolean json) {
    out.println();
    out.println(
        request.label()
            + " request "
            + request.method().toUpperCase(Locale.ROOT)
            + " "
            + request.path());
    out.println("  body        " + request.source() + " (" + request.body().length + " bytes)");
    Optional<String> canonical = Optional.empty();
    if (json) {
      try {
        canonical =
            Optional.of(
                new String(
                    JsonCanonicalizer.withMaxDepth(options.maxDepth())
                        .withNumberMode(JsonCanonicalizer.NumberMode.EXACT)
                        .canonicalize(request.body()),
                    StandardCharsets.UTF_8));
      } catch (JsonTooDeepException e) {
        return refused(
            "the body nests deeper than "
                + options.maxDepth()
                + " levels: Once answers 400 json-too-deep and stores nothing");
      } catch (MalformedJsonException e) {
        return refused(
            "the body is not one JSON value ("
                + e.getMessage()
                + "): Once answers 400 malformed-json and stores nothing");
      }
      out.println("  canonical   " + canonical.get());
    }
    Fingerprint fingerprint =
        Fingerprint.of(
            request.method(),
            request.path(),
            options.contentType().orElse(null),
            request.body(),
            JsonCanonicalizer.withMaxDepth(options.maxDepth()));
    out.println("  fingerprint " + fingerprint.toHex());
    return new Computed(canonical, Optional.of(fingerprint), Optional.empty());
  }

  private Computed refused(String why) {
    out.println("  REFUSED     " + why);
    return new Computed(Optional.empty(), Optional.empty(), Optional.of(why));
  }

  private List<String> reasons(
      Request first, Request second, Computed a, Computed b, boolean json) {
    List<String> reasons = new ArrayList<>();
    if (!first.method().equalsIgnoreCase(second.method())) {
      reasons.add("method: " + first.method() + " then " + second.method());
    }
    if (!first.path().equals(second.path())) {
      reasons.add(
          "path with query: "
              + first.path()
              + " then "
              + second.path()
              + " (compared byte for byte: %2F is not /, and the query's order counts)");
    }
    if (json) {
      JsonDifferences.Result differences =
          JsonDifferences.of(
              CanonicalJson.parse(a.canonical().orElseThrow()),
              CanonicalJson.parse(b.canonical().orElseThrow()),
              SHOWN_DIFFERENCES);
      reasons.addAll(differences.lines());
      if (differences.total() > differences.lines().size()) {
        reasons.add("… and " + (differences.total() - differences.lines().size()) + " more");
      }
    } else if (!Arrays.equals(first.body(), second.body())) {
      int at = Arrays.mismatch(first.body(), second.body());
      reasons.add(
          "body: the bytes differ from offset "
              + at
              + " ("
              + first.body().length
              + " and "
              + second.body().length
              + " bytes)");
    }
    return reasons;
  }

  private byte[] read(String source) throws UsageException {
    try {
      return source.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(source));
    } catch (NoSuchFileException e) {
      throw new UsageException("no such body file: " + source);
    } catch (IOException e) {
      throw new UsageException("cannot read " + source + ": " + e.getMessage());
    }
  }
}
