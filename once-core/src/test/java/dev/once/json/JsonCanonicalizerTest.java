package dev.once.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonCanonicalizerTest {
  private final JsonCanonicalizer jcs = JsonCanonicalizer.create();

  @ParameterizedTest
  @ValueSource(strings = {"arrays", "french", "structures", "unicode", "values", "weird"})
  void matchesRfc8785ReferenceVectors(String name) throws IOException {
    Path dir = JcsTestVectors.dir();
    byte[] input = Files.readAllBytes(dir.resolve("input").resolve(name + ".json"));
    byte[] expected = Files.readAllBytes(dir.resolve("output").resolve(name + ".json"));

    byte[] actual = jcs.canonicalize(input);

    assertThat(actual).isEqualTo(expected);
    assertThat(jcs.canonicalize(actual))
        .as("canonical output is a fixed point")
        .isEqualTo(expected);
    assertThat(jcs.canonicalize(new String(input, UTF_8)))
        .as("String entry point agrees")
        .isEqualTo(new String(expected, UTF_8));
  }

  @Test
  void whitespaceKeyOrderAndNumberSpellingDoNotMatter() {
    assertThat(jcs.canonicalize("{\"b\":1.0,\"a\":[1e2]}"))
        .isEqualTo(jcs.canonicalize(" { \"a\" : [ 100 ] , \"b\" : 1 } "))
        .isEqualTo("{\"a\":[100],\"b\":1}");
  }

  @Test
  void sortsNamesByUtf16CodeUnitsNotCodePoints() {
    // U+1F602 is D83D DE02 in UTF-16, which sorts before U+FB33 although its code point is larger.
    assertThat(jcs.canonicalize("{\"\\ufb33\":2,\"\\ud83d\\ude02\":1}"))
        .isEqualTo("{\"\ud83d\ude02\":1,\"\ufb33\":2}");
  }

  @Test
  void sortsLargeObjectsAndNestedObjects() {
    StringBuilder json = new StringBuilder("{");
    for (int i = 999; i >= 0; i--) {
      json.append(i == 999 ? "" : ",").append("\"k").append(i).append("\":{\"z\":").append(i);
      json.append(",\"a\":[").append(i).append("]}");
    }
    String canonical = jcs.canonicalize(json.append('}').toString());
    assertThat(canonical).startsWith("{\"k0\":{\"a\":[0],\"z\":0},\"k1\":{\"a\":[1],\"z\":1},");
    assertThat(canonical).contains(",\"k10\":{\"a\":[10],\"z\":10},\"k100\":");
    assertThat(canonical).endsWith(",\"k999\":{\"a\":[999],\"z\":999}}");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|0",
        "-0|0",
        "-0.0e7|0",
        "1E3|1000",
        "123456789012345|123456789012345",
        "-123456789012345|-123456789012345",
        "9007199254740993|9007199254740992",
        "1e21|1e+21",
        "1e20|100000000000000000000",
        "0.0000001|1e-7",
        "0.000001|0.000001",
        "1.5e-1|0.15",
        "4.50|4.5",
        "333333333.33333329|333333333.3333333",
        "1E30|1e+30",
        "1e-400|0",
        "-1e-400|0",
        "1.7976931348623157e308|1.7976931348623157e+308",
        "5e-324|5e-324",
        "123456789012345678901234567890|1.2345678901234568e+29",
        "0.1000000000000000055511151231257827|0.1",
        "1e0000000000000000000002|100"
      })
  void writesNumbersInEcmaScriptForm(String literal, String expected) {
    assertThat(jcs.canonicalize(literal)).isEqualTo(expected);
    assertThat(jcs.canonicalize("[" + literal + "]")).isEqualTo("[" + expected + "]");
  }

  @Test
  void escapesStringsMinimally() {
    assertThat(
            jcs.canonicalize("\"\\u0000\\u001F\\u007f\\/\\b\\f\\n\\r\\t\\\"\\\\\\u00e9\\u20AC\""))
        .isEqualTo("\"\\u0000\\u001f\u007f/\\b\\f\\n\\r\\t\\\"\\\\é€\"");
    assertThat(jcs.canonicalize("\"é€\ud83d\ude02\u007f\"")).isEqualTo("\"é€\ud83d\ude02\u007f\"");
  }

  @Test
  void acceptsAnyTopLevelValue() {
    assertThat(jcs.canonicalize(" true ")).isEqualTo("true");
    assertThat(jcs.canonicalize("false")).isEqualTo("false");
    assertThat(jcs.canonicalize("\tnull\r\n")).isEqualTo("null");
    assertThat(jcs.canonicalize("\"x\"")).isEqualTo("\"x\"");
    assertThat(jcs.canonicalize("[ ]")).isEqualTo("[]");
    assertThat(jcs.canonicalize("{ }")).isEqualTo("{}");
  }

  @Test
  void detectsNamesThatAreEqualOnlyAfterUnescaping() {
    assertThatThrownBy(() -> jcs.canonicalize("{\"a\":1,\"\\u0061\":2}"))
        .isInstanceOf(MalformedJsonException.class)
        .hasMessageContaining("duplicate property name")
        .extracting(e -> ((MalformedJsonException) e).offset())
        .isEqualTo(7L);
    assertThatThrownBy(() -> jcs.canonicalize("{\"b\":1,\"a\":2,\"c\":3,\"b\":4}"))
        .isInstanceOf(MalformedJsonException.class)
        .extracting(e -> ((MalformedJsonException) e).offset())
        .isEqualTo(19L);
    assertThatThrownBy(() -> jcs.canonicalize("{\"\\n\":1,\"\\u000A\":2}"))
        .isInstanceOf(MalformedJsonException.class);
    assertThatThrownBy(() -> jcs.canonicalize("{\"x\":{\"\\ud83d\\ude02\":1,\"😂\":2}}"))
        .isInstanceOf(MalformedJsonException.class);
    // the same name in different objects is fine
    assertThat(jcs.canonicalize("{\"a\":{\"a\":1},\"b\":{\"a\":2}}"))
        .isEqualTo("{\"a\":{\"a\":1},\"b\":{\"a\":2}}");
  }

  static Stream<Arguments> containerOpeners() {
    return Stream.of(Arguments.of("[", "]"), Arguments.of("{\"a\":", "}"));
  }

  @ParameterizedTest
  @MethodSource("containerOpeners")
  void acceptsExactlyMaxDepthLevels(String open, String close) {
    int max = JsonCanonicalizer.DEFAULT_MAX_DEPTH;
    String atLimit = open.repeat(max - 1) + "[]" + close.repeat(max - 1);
    assertThat(jcs.canonicalize(atLimit)).isEqualTo(atLimit);

    String tooDeep = open.repeat(max) + "[]" + close.repeat(max);
    assertThatThrownBy(() -> jcs.canonicalize(tooDeep))
        .isInstanceOfSatisfying(
            JsonTooDeepException.class, e -> assertThat(e.maxDepth()).isEqualTo(max))
        .hasMessageContaining("maximum depth of 64");
  }

  @Test
  void honoursCustomMaxDepth() {
    JsonCanonicalizer shallow = JsonCanonicalizer.withMaxDepth(1);
    assertThat(shallow.maxDepth()).isEqualTo(1);
    assertThat(shallow.canonicalize("[1, 2]")).isEqualTo("[1,2]");
    assertThat(shallow.canonicalize("{\"a\":1}")).isEqualTo("{\"a\":1}");
    assertThat(shallow.canonicalize("7")).isEqualTo("7");
    assertThatThrownBy(() -> shallow.canonicalize("[{}]"))
        .isInstanceOfSatisfying(
            JsonTooDeepException.class, e -> assertThat(e.offset()).isEqualTo(1));
  }

  @Test
  void rejectsHostileNestingWithoutStackOverflow() {
    byte[] hostile = "[".repeat(100_000).getBytes(UTF_8);
    assertThatThrownBy(() -> jcs.canonicalize(hostile))
        .isInstanceOf(JsonTooDeepException.class)
        .extracting(e -> ((MalformedJsonException) e).offset())
        .isEqualTo(64L);
  }

  @Test
  void handlesVeryDeepInputIterativelyWhenAllowed() {
    int depth = 100_000;
    String deep = "[{\"a\":".repeat(depth / 2) + "null" + "}]".repeat(depth / 2);
    assertThat(JsonCanonicalizer.withMaxDepth(depth).canonicalize(deep)).isEqualTo(deep);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
  void validatesMaxDepth(int bad) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> JsonCanonicalizer.withMaxDepth(bad))
        .withMessageContaining(String.valueOf(bad));
  }

  @Test
  void stringAndByteEntryPointsAgree() {
    String json = "{\"é\":[1.0,\"\\u00e9\\ud83d\\ude02\"],\"a\":{\"z\":null,\"y\":1e-7}}";
    byte[] fromBytes = jcs.canonicalize(json.getBytes(UTF_8));
    assertThat(jcs.canonicalize(json)).isEqualTo(new String(fromBytes, UTF_8));
    assertThat(fromBytes)
        .isEqualTo("{\"a\":{\"y\":1e-7,\"z\":null},\"é\":[1,\"é😂\"]}".getBytes(UTF_8));
  }

  @Test
  void stringEntryPointRejectsUnpairedSurrogatesAndReportsUtf8Offsets() {
    assertThatThrownBy(() -> jcs.canonicalize("[\"é\ud800\"]"))
        .isInstanceOfSatisfying(
            MalformedJsonException.class, e -> assertThat(e.offset()).isEqualTo(4));
    assertThatThrownBy(() -> jcs.canonicalize("[\"é\",01]"))
        .isInstanceOfSatisfying(
            MalformedJsonException.class, e -> assertThat(e.offset()).isEqualTo(6));
  }

  @Test
  void doesNotModifyTheInputArray() {
    byte[] input = "{\"b\":2,\"a\":1}".getBytes(UTF_8);
    byte[] copy = input.clone();
    jcs.canonicalize(input);
    assertThat(input).isEqualTo(copy);
  }

  @Test
  void createReturnsTheDefaultDepth() {
    assertThat(JsonCanonicalizer.create().maxDepth()).isEqualTo(64);
    assertThat(JsonCanonicalizer.withMaxDepth(64).maxDepth()).isEqualTo(64);
    assertThat(JsonCanonicalizer.create()).hasToString("JsonCanonicalizer[maxDepth=64]");
  }
}
