package dev.once.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.json.JsonCanonicalizer;
import dev.once.json.MalformedJsonException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FingerprintTest {
  private static final JsonCanonicalizer JCS = JsonCanonicalizer.create();

  private static Fingerprint json(String method, String path, String body) {
    return Fingerprint.of(method, path, "application/json", bytes(body), JCS);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void keyOrderWhitespaceAndNumberSpellingDoNotMatter() {
    Fingerprint a = json("POST", "/v1/payments", "{\"amount\":\"12.50\",\"n\":1.0,\"x\":[1e2]}");
    Fingerprint b =
        json("POST", "/v1/payments", " {\n \"x\" : [ 100 ] , \"n\":1, \"amount\" : \"12.50\" } ");
    assertThat(a).isEqualTo(b);
    assertThat(a.toHex()).hasSize(64);
  }

  /**
   * Issue 5, item 4: each pair rounds to one double, so RFC 8785 alone gives both bodies one form,
   * and a retry with the second amount would be replayed the first amount's answer instead of 422.
   */
  @ParameterizedTest
  @CsvSource({
    "9007199254740993, 9007199254740992",
    "1e-400, 0",
    "0.30000000000000001, 0.3",
    "333333333.33333329, 333333333.3333333",
    "1e400, 1e401"
  })
  void numbersThatDifferInValueNeverShareAFingerprint(String first, String second) {
    Fingerprint a = json("POST", "/v1/payments", "{\"currency\":\"EUR\",\"n\":" + first + "}");
    Fingerprint b = json("POST", "/v1/payments", "{\"currency\":\"EUR\",\"n\":" + second + "}");
    assertThat(a).isNotEqualTo(b);
  }

  @ParameterizedTest
  @CsvSource({
    "1, 1.0",
    "1, 1e0",
    "1, 10e-1",
    "1, 0.1e1",
    "1, 1E+0",
    "1, 100e-2",
    "0, -0",
    "0, 0.0",
    "0, 0e5",
    "0, -0.0e-400",
    "9007199254740993, 90071992547409930e-1",
    "1e-400, 0.1E-399"
  })
  void spellingsOfOneValueShareAFingerprint(String first, String second) {
    assertThat(json("POST", "/p", "{\"n\":" + first + "}"))
        .isEqualTo(json("POST", "/p", "{\"n\": " + second + "}"));
  }

  @Test
  void numbersAreExactWhateverTheCanonicalizersNumberMode() {
    JsonCanonicalizer rfc8785 =
        JsonCanonicalizer.withMaxDepth(2).withNumberMode(JsonCanonicalizer.NumberMode.RFC_8785);
    Fingerprint a =
        Fingerprint.of("POST", "/p", "application/json", bytes("[9007199254740993]"), rfc8785);
    Fingerprint b =
        Fingerprint.of("POST", "/p", "application/json", bytes("[9007199254740992]"), rfc8785);
    assertThat(a).isNotEqualTo(b).isEqualTo(json("POST", "/p", "[9007199254740993]"));
    assertThatThrownBy(
            () -> Fingerprint.of("POST", "/p", "application/json", bytes("[[[]]]"), rfc8785))
        .as("the depth limit still applies")
        .isInstanceOf(dev.once.json.JsonTooDeepException.class);
  }

  @Test
  void mediaTypeParametersAndJsonSuffixCountAsJson() {
    Fingerprint plain = json("POST", "/p", "{\"a\":1}");
    Fingerprint withCharset =
        Fingerprint.of(
            "POST", "/p", "application/json; charset=utf-8", bytes("{ \"a\" : 1 }"), JCS);
    Fingerprint problem =
        Fingerprint.of("POST", "/p", "application/merge-patch+json", bytes("{\"a\": 1}"), JCS);
    assertThat(withCharset).isEqualTo(plain);
    assertThat(problem).isEqualTo(plain);
  }

  @Test
  void differentValuesMethodPathOrQueryDiffer() {
    Fingerprint base = json("POST", "/v1/payments", "{\"amount\":\"12.50\"}");
    assertThat(json("POST", "/v1/payments", "{\"amount\":\"12.5\"}")).isNotEqualTo(base);
    assertThat(json("PUT", "/v1/payments", "{\"amount\":\"12.50\"}")).isNotEqualTo(base);
    assertThat(json("POST", "/v1/payments/", "{\"amount\":\"12.50\"}")).isNotEqualTo(base);
    assertThat(json("POST", "/v1/payments?x=1", "{\"amount\":\"12.50\"}")).isNotEqualTo(base);
  }

  @Test
  void methodIsCaseInsensitive() {
    assertThat(json("post", "/p", "{}")).isEqualTo(json("POST", "/p", "{}"));
  }

  @Test
  void otherMediaTypesUseRawBytes() {
    Fingerprint a = Fingerprint.of("POST", "/p", "text/plain", bytes("{\"a\":1}"), JCS);
    Fingerprint b = Fingerprint.of("POST", "/p", "text/plain", bytes("{ \"a\":1}"), JCS);
    assertThat(a).isNotEqualTo(b);
    // Not JSON, so malformed JSON is fine here.
    Fingerprint.of("POST", "/p", "text/plain", bytes("{oops"), JCS);
  }

  @Test
  void malformedJsonIsRejectedBeforeAnythingElse() {
    assertThatThrownBy(() -> json("POST", "/p", "{\"a\":1,}"))
        .isInstanceOf(MalformedJsonException.class);
  }

  @Test
  void emptyBodyDeclaredAsJsonIsMalformed() {
    assertThatThrownBy(() -> Fingerprint.of("POST", "/p", "application/json", new byte[0], JCS))
        .isInstanceOf(MalformedJsonException.class);
    assertThatThrownBy(() -> json("POST", "/p", "  ")).isInstanceOf(MalformedJsonException.class);
  }

  @Test
  void emptyBodyWithoutJsonTypeIsFingerprintedAsIs() {
    assertThat(Fingerprint.of("POST", "/p", null, new byte[0], JCS))
        .isEqualTo(Fingerprint.of("POST", "/p", "text/plain", new byte[0], JCS))
        .isNotEqualTo(Fingerprint.of("POST", "/q", null, new byte[0], JCS));
  }

  @Test
  void roundTripsThroughBytes() {
    Fingerprint f = json("POST", "/p", "{}");
    assertThat(Fingerprint.fromBytes(f.toBytes())).isEqualTo(f);
    assertThatThrownBy(() -> Fingerprint.fromBytes(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
