package dev.once.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.json.JsonCanonicalizer;
import dev.once.json.MalformedJsonException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

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
