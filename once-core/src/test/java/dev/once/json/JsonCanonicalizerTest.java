package dev.once.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.json.JsonCanonicalizer.NumberMode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonCanonicalizerTest {
  private final JsonCanonicalizer jcs = JsonCanonicalizer.create();
  private final JsonCanonicalizer rfc8785 = jcs.withNumberMode(NumberMode.RFC_8785);

  @ParameterizedTest
  @ValueSource(strings = {"arrays", "french", "structures", "unicode", "values", "weird"})
  void rfc8785ModeMatchesTheReferenceVectorsByteForByte(String name) throws IOException {
    byte[] expected = vector("output", name);
    assertCanonicalizes(rfc8785, vector("input", name), expected);
  }

  /**
   * Exact numbers depart from RFC 8785 only where a literal is not the shortest form of a double.
   * In the six reference inputs that is one number, 333333333.33333329 in values.json, which RFC
   * 8785 rounds to the double 333333333.3333333 and exact mode keeps; everything else is identical.
   */
  @ParameterizedTest
  @ValueSource(strings = {"arrays", "french", "structures", "unicode", "values", "weird"})
  void exactModeMatchesTheReferenceVectorsButForOneDocumentedNumber(String name)
      throws IOException {
    String expected = new String(vector("output", name), UTF_8);
    if (name.equals("values")) {
      assertThat(expected).contains("[333333333.3333333,");
      expected = expected.replace("[333333333.3333333,", "[333333333.33333329,");
    }
    assertCanonicalizes(jcs, vector("input", name), expected.getBytes(UTF_8));
  }

  private static byte[] vector(String folder, String name) throws IOException {
    return Files.readAllBytes(JcsTestVectors.dir().resolve(folder).resolve(name + ".json"));
  }

  private static void assertCanonicalizes(JsonCanonicalizer jcs, byte[] input, byte[] expected) {
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

  /**
   * Both number modes side by side. RFC 8785 mode writes the nearest double in ECMAScript form and
   * refuses what overflows a double (an empty column); exact mode keeps the exact value and lays it
   * out as ECMAScript lays out a double's digits, so the two agree wherever the literal is the
   * shortest form of a double.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0|0|0",
        "-0|0|0",
        "-0.0e7|0|0",
        "0e99999999999999999999999|0|0",
        "-0.000e-99999999999999999999999|0|0",
        "1E3|1000|1000",
        "123456789012345|123456789012345|123456789012345",
        "-123456789012345|-123456789012345|-123456789012345",
        "9007199254740993|9007199254740992|9007199254740993",
        "-9007199254740993|-9007199254740992|-9007199254740993",
        "1e21|1e+21|1e+21",
        "1e20|100000000000000000000|100000000000000000000",
        "123456789012345678901|123456789012345680000|123456789012345678901",
        "1234567890123456789012|1.2345678901234568e+21|1.234567890123456789012e+21",
        "0.0000001|1e-7|1e-7",
        "0.000001|0.000001|0.000001",
        "0.00000123|0.00000123|0.00000123",
        "0.000000123|1.23e-7|1.23e-7",
        "1.5e-1|0.15|0.15",
        "4.50|4.5|4.5",
        "-12.3400e2|-1234|-1234",
        "1020.0300|1020.03|1020.03",
        "100.000|100|100",
        "333333333.33333329|333333333.3333333|333333333.33333329",
        "0.30000000000000001|0.3|0.30000000000000001",
        "1E30|1e+30|1e+30",
        "1e400||1e+400",
        "-1.8e308||-1.8e+308",
        "1e-400|0|1e-400",
        "-1e-400|0|-1e-400",
        "-25e-401|0|-2.5e-400",
        "1.7976931348623157e308|1.7976931348623157e+308|1.7976931348623157e+308",
        "5e-324|5e-324|5e-324",
        "123456789012345678901234567890|1.2345678901234568e+29|1.2345678901234567890123456789e+29",
        "0.1000000000000000055511151231257827|0.1|0.1000000000000000055511151231257827",
        "1e0000000000000000000002|100|100",
        "1e999999999999||1e+999999999999",
        "1e-2147483649|0|1e-2147483649",
        "12.5e-999999999999999999|0|1.25e-999999999999999998",
        "1e9999999999999999999||1e+9999999999999999999",
        "10e9999999999999999999||1e+10000000000000000000",
        "0.1e10000000000000000000||1e+9999999999999999999",
        "0.01e10000000000000000000||1e+9999999999999999998",
        "1e-10000000000000000000|0|1e-10000000000000000000",
        "0.1e-9999999999999999999|0|1e-10000000000000000000",
        "1000e-10000000000000000002|0|1e-9999999999999999999",
        "-7.50e+000123456789012345678901234567890||-7.5e+123456789012345678901234567890"
      })
  void writesNumbers(String literal, String asRfc8785, String exact) {
    assertThat(jcs.canonicalize(literal)).isEqualTo(exact);
    assertThat(jcs.canonicalize("[" + literal + "]")).isEqualTo("[" + exact + "]");
    assertThat(jcs.canonicalize(exact)).as("fixed point").isEqualTo(exact);
    if (asRfc8785 == null) {
      assertThatThrownBy(() -> rfc8785.canonicalize(literal))
          .isInstanceOf(MalformedJsonException.class)
          .hasMessageEndingWith("the number is outside the range of a double.");
    } else {
      assertThat(rfc8785.canonicalize(literal)).isEqualTo(asRfc8785);
      assertThat(rfc8785.canonicalize("[" + literal + "]")).isEqualTo("[" + asRfc8785 + "]");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1.0", "1e0", "10e-1", "0.1e1", "1E+0", "100e-2", "1.000E000"})
  void everySpellingOfOneIsOne(String literal) {
    assertThat(jcs.canonicalize(literal)).isEqualTo("1");
    assertThat(rfc8785.canonicalize(literal)).isEqualTo("1");
  }

  /**
   * An exponent of a million digits costs time linear in its length: it is never parsed into a
   * BigInteger (quadratic: about 16 s for a million digits) nor expanded into plain notation.
   */
  @Test
  @Timeout(10)
  void hugeExponentsTakeLinearTime() {
    String nines = "9".repeat(1_000_000);
    assertThat(jcs.canonicalize("[10e" + nines + "]"))
        .isEqualTo("[1e+1" + "0".repeat(1_000_000) + "]");
    assertThat(jcs.canonicalize("0.1e-" + nines)).isEqualTo("1e-1" + "0".repeat(1_000_000));
    String digits = "12345678".repeat(100_000);
    assertThat(jcs.canonicalize("0." + digits + "e-1" + "0".repeat(500_000)))
        .isEqualTo("1." + digits.substring(1) + "e-1" + "0".repeat(499_999) + "1");
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
  void createReturnsTheDefaultDepthAndExactNumbers() {
    assertThat(JsonCanonicalizer.create().maxDepth()).isEqualTo(64);
    assertThat(JsonCanonicalizer.create().numberMode()).isEqualTo(NumberMode.EXACT);
    assertThat(JsonCanonicalizer.withMaxDepth(64)).isSameAs(JsonCanonicalizer.create());
    assertThat(JsonCanonicalizer.withMaxDepth(7).numberMode()).isEqualTo(NumberMode.EXACT);
    assertThat(JsonCanonicalizer.create())
        .hasToString("JsonCanonicalizer[maxDepth=64, numberMode=EXACT]");
  }

  @Test
  void withNumberModeKeepsTheDepthLimit() {
    JsonCanonicalizer shallow = JsonCanonicalizer.withMaxDepth(1);
    JsonCanonicalizer strict = shallow.withNumberMode(NumberMode.RFC_8785);
    assertThat(strict.maxDepth()).isEqualTo(1);
    assertThat(strict.numberMode()).isEqualTo(NumberMode.RFC_8785);
    assertThat(strict).hasToString("JsonCanonicalizer[maxDepth=1, numberMode=RFC_8785]");
    assertThat(strict.withNumberMode(NumberMode.RFC_8785)).isSameAs(strict);
    assertThat(strict.withNumberMode(NumberMode.EXACT).canonicalize("[1e400]"))
        .isEqualTo("[1e+400]");
    assertThatThrownBy(() -> strict.canonicalize("[[]]")).isInstanceOf(JsonTooDeepException.class);
    assertThatThrownBy(() -> shallow.withNumberMode(null)).isInstanceOf(NullPointerException.class);
  }
}
