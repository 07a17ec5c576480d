package dev.once.verify.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.once.idempotency.Fingerprint;
import dev.once.json.JsonCanonicalizer;
import dev.once.verify.cli.UsageException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fingerprint} prints what Once's filter computes ({@link Fingerprint#of}), and for two
 * requests the verdict a retry would get and each place where they differ.
 */
class FingerprintCommandTest {
  @TempDir Path dir;

  private String output;

  private Path file(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  private int run(String stdin, String... args) throws UsageException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int status =
        new FingerprintCommand(
                FingerprintOptions.parse(args),
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)))
            .run();
    output = bytes.toString(StandardCharsets.UTF_8);
    return status;
  }

  private int compare(String first, String second, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("POST", "/v1/payments"));
    args.add(file("first.json", first).toString());
    args.add(file("second.json", second).toString());
    args.addAll(List.of(flags));
    return run("", args.toArray(String[]::new));
  }

  @Test
  void printsTheCanonicalBodyAndTheFingerprintOnceComputes() throws Exception {
    String body = "{ \"currency\": \"EUR\", \"amount\": \"12.50\", \"n\": 1.0 }";
    assertThat(run("", "post", "/v1/payments?x=1", file("body.json", body).toString()))
        .isEqualTo(0);
    String expected =
        Fingerprint.of(
                "POST",
                "/v1/payments?x=1",
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                JsonCanonicalizer.create())
            .toHex();
    assertThat(output)
        .as(output)
        .contains("canonical   {\"amount\":\"12.50\",\"currency\":\"EUR\",\"n\":1}");
    assertThat(output).as(output).contains("fingerprint " + expected);
    assertThat(output).as(output).contains("first request POST /v1/payments?x=1");
    assertThat(output).as(output).doesNotContain("verdict");
  }

  @Test
  void readsTheBodyFromStandardInput() throws Exception {
    assertThat(run("{\"b\":2,\"a\":1}", "POST", "/v1/accounts", "-")).isEqualTo(0);
    assertThat(output).as(output).contains("canonical   {\"a\":1,\"b\":2}");
  }

  @Test
  void spellingThatTheCanonicalFormRemovesGivesTheSameFingerprint() throws Exception {
    assertThat(
            compare(
                "{\"amount\":\"12.50\",\"n\":1.0,\"name\":\"A\",\"list\":[1,2]}",
                "{ \"list\" : [ 1 , 2 ], \"name\":\"\\u0041\", \"n\": 10e-1, \"amount\": \"12.50\" }"))
        .isEqualTo(0);
    assertThat(output).as(output).contains("SAME fingerprint");
    assertThat(output).as(output).contains("Idempotent-Replayed: true");
    assertThat(output).as(output).contains("differ only in spelling");
  }

  @Test
  void aStringAmountSpelledOtherwiseIsAnotherRequest() throws Exception {
    assertThat(compare("{\"amount\":\"12.50\"}", "{\"amount\":\"12.5\"}")).isEqualTo(1);
    assertThat(output).as(output).contains("DIFFERENT fingerprints");
    assertThat(output).as(output).contains("422 idempotency-key-reused");
    assertThat(output)
        .as(output)
        .contains("/amount: \"12.50\" in the first body, \"12.5\" in the second");
  }

  @Test
  void numbersAreComparedByExactValue() throws Exception {
    assertThat(compare("{\"n\":9007199254740993}", "{\"n\":9007199254740992}")).isEqualTo(1);
    assertThat(output)
        .as(output)
        .contains(
            "/n: 9007199254740993 in the first body, 9007199254740992 in the second (different"
                + " values)");
  }

  @Test
  void namesEachPlaceByItsJsonPointer() throws Exception {
    assertThat(
            compare(
                "{\"a/b\":{\"c~d\":1},\"items\":[{\"q\":1},{\"q\":2}],\"gone\":true,\"t\":\"1\"}",
                "{\"a/b\":{\"c~d\":2},\"items\":[{\"q\":1},{\"q\":3},{\"q\":4}],\"new\":null,\"t\":1}"))
        .isEqualTo(1);
    assertThat(output).as(output).contains("/a~1b/c~0d: 1 in the first body, 2 in the second");
    assertThat(output).as(output).contains("/items: 2 items in the first body, 3 in the second");
    assertThat(output).as(output).contains("/items/1/q: 2 in the first body, 3 in the second");
    assertThat(output).as(output).contains("/gone: only in the first body, true");
    assertThat(output).as(output).contains("/new: only in the second body, null");
    assertThat(output)
        .as(output)
        .contains("/t: \"1\" in the first body, 1 in the second (a string, then a number)");
  }

  @Test
  void aDifferentPathOrMethodIsAnotherRequest() throws Exception {
    Path body = file("body.json", "{\"a\":1}");
    assertThat(
            run(
                "",
                "POST",
                "/v1/orders/x/pay",
                body.toString(),
                "--other-path",
                "/v1/orders/y/pay"))
        .isEqualTo(1);
    assertThat(output)
        .as(output)
        .contains("path with query: /v1/orders/x/pay then /v1/orders/y/pay");
    assertThat(run("", "POST", "/v1/x", body.toString(), "--other-method", "PUT")).isEqualTo(1);
    assertThat(output).as(output).contains("method: POST then PUT");
    assertThat(run("", "POST", "/v1/x", body.toString(), "--other-method", "post")).isEqualTo(0);
  }

  @Test
  void aBodyTheFilterRefusesIsNamedWithItsProblem() throws Exception {
    assertThat(compare("{\"a\":", "{\"a\":1}")).isEqualTo(1);
    assertThat(output).as(output).contains("REFUSED");
    assertThat(output).as(output).contains("400 malformed-json");
    assertThat(output).as(output).contains("byte offset 5");

    assertThat(
            run("", "POST", "/v1/x", file("deep.json", "[[[1]]]").toString(), "--max-depth", "2"))
        .isEqualTo(1);
    assertThat(output).as(output).contains("400 json-too-deep");

    assertThat(run("", "POST", "/v1/x", file("empty.json", "").toString())).isEqualTo(1);
    assertThat(output).as(output).contains("400 malformed-json");
  }

  @Test
  void aBodyThatIsNotJsonIsComparedByteForByte() throws Exception {
    assertThat(compare("abcdef", "abcXef", "--content-type", "text/plain")).isEqualTo(1);
    assertThat(output).as(output).contains("not JSON, the raw bytes are hashed");
    assertThat(output).as(output).contains("the bytes differ from offset 3");
    assertThat(run("", "POST", "/v1/orders/x/pay", "/dev/null", "--content-type", "none"))
        .isEqualTo(0);
    assertThat(output).as(output).contains("content type  (none)");
  }

  @Test
  void refusesWrongArguments() throws Exception {
    String body = file("body.json", "{}").toString();
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> FingerprintOptions.parse(new String[] {"POST", "/x"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> FingerprintOptions.parse(new String[] {"PO ST", "/x", body}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> FingerprintOptions.parse(new String[] {"POST", "x", body}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--max-depth", "0"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--nope", "1"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(
            () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--other-path"}));
    assertThatExceptionOfType(UsageException.class)
        .isThrownBy(() -> run("", "POST", "/x", dir.resolve("missing.json").toString()));
  }
}
