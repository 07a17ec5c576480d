package dev.once.verify.fingerprint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.once.idempotency.Fingerprint;
import dev.once.json.JsonCanonicalizer;
import dev.once.verify.UsageException;
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
    assertEquals(0, run("", "post", "/v1/payments?x=1", file("body.json", body).toString()));
    String expected =
        Fingerprint.of(
                "POST",
                "/v1/payments?x=1",
                "application/json",
                body.getBytes(StandardCharsets.UTF_8),
                JsonCanonicalizer.create())
            .toHex();
    assertTrue(
        output.contains("canonical   {\"amount\":\"12.50\",\"currency\":\"EUR\",\"n\":1}"), output);
    assertTrue(output.contains("fingerprint " + expected), output);
    assertTrue(output.contains("first request POST /v1/payments?x=1"), output);
    assertFalse(output.contains("verdict"), output);
  }

  @Test
  void readsTheBodyFromStandardInput() throws Exception {
    assertEquals(0, run("{\"b\":2,\"a\":1}", "POST", "/v1/accounts", "-"));
    assertTrue(output.contains("canonical   {\"a\":1,\"b\":2}"), output);
  }

  @Test
  void spellingThatTheCanonicalFormRemovesGivesTheSameFingerprint() throws Exception {
    assertEquals(
        0,
        compare(
            "{\"amount\":\"12.50\",\"n\":1.0,\"name\":\"A\",\"list\":[1,2]}",
            "{ \"list\" : [ 1 , 2 ], \"name\":\"\\u0041\", \"n\": 10e-1, \"amount\": \"12.50\" }"));
    assertTrue(output.contains("SAME fingerprint"), output);
    assertTrue(output.contains("Idempotent-Replayed: true"), output);
    assertTrue(output.contains("differ only in spelling"), output);
  }

  @Test
  void aStringAmountSpelledOtherwiseIsAnotherRequest() throws Exception {
    assertEquals(1, compare("{\"amount\":\"12.50\"}", "{\"amount\":\"12.5\"}"));
    assertTrue(output.contains("DIFFERENT fingerprints"), output);
    assertTrue(output.contains("422 idempotency-key-reused"), output);
    assertTrue(
        output.contains("/amount: \"12.50\" in the first body, \"12.5\" in the second"), output);
  }

  @Test
  void numbersAreComparedByExactValue() throws Exception {
    assertEquals(1, compare("{\"n\":9007199254740993}", "{\"n\":9007199254740992}"));
    assertTrue(
        output.contains(
            "/n: 9007199254740993 in the first body, 9007199254740992 in the second (different"
                + " values)"),
        output);
  }

  @Test
  void namesEachPlaceByItsJsonPointer() throws Exception {
    assertEquals(
        1,
        compare(
            "{\"a/b\":{\"c~d\":1},\"items\":[{\"q\":1},{\"q\":2}],\"gone\":true,\"t\":\"1\"}",
            "{\"a/b\":{\"c~d\":2},\"items\":[{\"q\":1},{\"q\":3},{\"q\":4}],\"new\":null,\"t\":1}"));
    assertTrue(output.contains("/a~1b/c~0d: 1 in the first body, 2 in the second"), output);
    assertTrue(output.contains("/items: 2 items in the first body, 3 in the second"), output);
    assertTrue(output.contains("/items/1/q: 2 in the first body, 3 in the second"), output);
    assertTrue(output.contains("/gone: only in the first body, true"), output);
    assertTrue(output.contains("/new: only in the second body, null"), output);
    assertTrue(
        output.contains("/t: \"1\" in the first body, 1 in the second (a string, then a number)"),
        output);
  }

  @Test
  void aDifferentPathOrMethodIsAnotherRequest() throws Exception {
    Path body = file("body.json", "{\"a\":1}");
    assertEquals(
        1,
        run("", "POST", "/v1/orders/x/pay", body.toString(), "--other-path", "/v1/orders/y/pay"));
    assertTrue(output.contains("path with query: /v1/orders/x/pay then /v1/orders/y/pay"), output);
    assertEquals(1, run("", "POST", "/v1/x", body.toString(), "--other-method", "PUT"));
    assertTrue(output.contains("method: POST then PUT"), output);
    assertEquals(0, run("", "POST", "/v1/x", body.toString(), "--other-method", "post"));
  }

  @Test
  void aBodyTheFilterRefusesIsNamedWithItsProblem() throws Exception {
    assertEquals(1, compare("{\"a\":", "{\"a\":1}"));
    assertTrue(output.contains("REFUSED"), output);
    assertTrue(output.contains("400 malformed-json"), output);
    assertTrue(output.contains("byte offset 5"), output);

    assertEquals(
        1, run("", "POST", "/v1/x", file("deep.json", "[[[1]]]").toString(), "--max-depth", "2"));
    assertTrue(output.contains("400 json-too-deep"), output);

    assertEquals(1, run("", "POST", "/v1/x", file("empty.json", "").toString()));
    assertTrue(output.contains("400 malformed-json"), output);
  }

  @Test
  void aBodyThatIsNotJsonIsComparedByteForByte() throws Exception {
    assertEquals(1, compare("abcdef", "abcXef", "--content-type", "text/plain"));
    assertTrue(output.contains("not JSON, the raw bytes are hashed"), output);
    assertTrue(output.contains("the bytes differ from offset 3"), output);
    assertEquals(0, run("", "POST", "/v1/orders/x/pay", "/dev/null", "--content-type", "none"));
    assertTrue(output.contains("content type  (none)"), output);
  }

  @Test
  void refusesWrongArguments() throws Exception {
    String body = file("body.json", "{}").toString();
    assertThrows(UsageException.class, () -> FingerprintOptions.parse(new String[] {"POST", "/x"}));
    assertThrows(
        UsageException.class, () -> FingerprintOptions.parse(new String[] {"PO ST", "/x", body}));
    assertThrows(
        UsageException.class, () -> FingerprintOptions.parse(new String[] {"POST", "x", body}));
    assertThrows(
        UsageException.class,
        () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--max-depth", "0"}));
    assertThrows(
        UsageException.class,
        () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--nope", "1"}));
    assertThrows(
        UsageException.class,
        () -> FingerprintOptions.parse(new String[] {"POST", "/x", body, "--other-path"}));
    assertThrows(
        UsageException.class, () -> run("", "POST", "/x", dir.resolve("missing.json").toString()));
  }
}
