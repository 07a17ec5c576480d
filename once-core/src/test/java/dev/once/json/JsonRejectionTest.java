package dev.once.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input RFC 8259 / RFC 8785 forbids is rejected with an offset and a payload-free message.
 */
class JsonRejectionTest {
  private final JsonCanonicalizer jcs = JsonCanonicalizer.create();

  /** Builds input from text where {@code <XX>} stands for the raw byte 0xXX. */
  private static byte[] bytes(String spec) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c == '<') {
        out.write(Integer.parseInt(spec.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(UTF_8);
        out.write(encoded, 0, encoded.length);
      }
    }
    return out.toByteArray();
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        // description, input, expected offset
        Arguments.of("empty input", "", 0),
        Arguments.of("only whitespace", " \n\t", 3),
        Arguments.of("byte order mark", "<EF><BB><BF>{}", 0),
        Arguments.of("trailing non-whitespace", "{} x", 3),
        Arguments.of("two top-level values", "1 2", 2),
        Arguments.of("extra closing bracket", "[]]", 2),
        Arguments.of("trailing comma in array", "[1,]", 3),
        Arguments.of("trailing comma in object", "{\"a\":1,}", 7),
        Arguments.of("leading comma in array", "[,1]", 1),
        Arguments.of("empty member", "{,}", 1),
        Arguments.of("single-quoted name", "{'a':1}", 1),
        Arguments.of("single-quoted string", "'a'", 0),
        Arguments.of("unquoted name", "{a:1}", 1),
        Arguments.of("missing colon", "{\"a\" 1}", 5),
        Arguments.of("missing member value", "{\"a\":}", 5),
        Arguments.of("name without value", "{\"a\"}", 4),
        Arguments.of("missing comma", "[1 2]", 3),
        Arguments.of("unclosed array", "[1", 2),
        Arguments.of("unclosed object", "{\"a\":1", 6),
        Arguments.of("mismatched brackets", "[1}", 2),
        Arguments.of("unterminated string", "\"abc", 0),
        Arguments.of("raw control character", "\"a<01>b\"", 2),
        Arguments.of("raw tab", "\"a\tb\"", 2),
        Arguments.of("raw newline", "\"a\nb\"", 2),
        Arguments.of("invalid escape x", "\"\\x\"", 1),
        Arguments.of("invalid escape quote", "\"\\'\"", 1),
        Arguments.of("upper-case U escape", "\"\\U0041\"", 1),
        Arguments.of("short unicode escape", "\"\\u12\"", 3),
        Arguments.of("non-hex unicode escape", "\"\\u12G4\"", 3),
        Arguments.of("escape at end of input", "\"\\", 1),
        Arguments.of("lone high surrogate", "\"\\ud800\"", 1),
        Arguments.of("lone low surrogate", "\"\\udc00\"", 1),
        Arguments.of("high surrogate then letter", "\"\\ud83dx\"", 1),
        Arguments.of("high surrogate then non-surrogate", "\"\\ud83d\\u0041\"", 1),
        Arguments.of("two high surrogates", "\"\\ud83d\\ud83d\"", 1),
        Arguments.of("leading zero", "01", 0),
        Arguments.of("negative leading zero", "-01", 1),
        Arguments.of("double zero", "[00]", 1),
        Arguments.of("trailing decimal point", "1.", 2),
        Arguments.of("decimal point before exponent", "1.e5", 2),
        Arguments.of("leading decimal point", ".5", 0),
        Arguments.of("lone minus", "-", 1),
        Arguments.of("minus without digits", "[-]", 2),
        Arguments.of("plus sign", "+1", 0),
        Arguments.of("exponent without digits", "1e", 2),
        Arguments.of("signed exponent without digits", "1e+", 3),
        Arguments.of("NaN", "NaN", 0),
        Arguments.of("Infinity", "Infinity", 0),
        Arguments.of("negative Infinity", "-Infinity", 1),
        Arguments.of("hex number", "0x10", 1),
        Arguments.of("truncated literal", "tru", 0),
        Arguments.of("capitalised literal", "True", 0),
        Arguments.of("misspelt null", "nul1", 0),
        Arguments.of("literal with trailing letters", "truex", 4),
        Arguments.of("overlong slash", "\"<C0><AF>\"", 1),
        Arguments.of("overlong 3-byte", "\"<E0><80><AF>\"", 1),
        Arguments.of("overlong 4-byte", "\"<F0><80><80><AF>\"", 1),
        Arguments.of("UTF-8 encoded high surrogate", "\"<ED><A0><80>\"", 1),
        Arguments.of("UTF-8 encoded low surrogate", "\"<ED><B0><80>\"", 1),
        Arguments.of("above U+10FFFF", "\"<F4><90><80><80>\"", 1),
        Arguments.of("invalid lead byte", "\"<F5><80><80><80>\"", 1),
        Arguments.of("byte FF", "\"<FF>\"", 1),
        Arguments.of("stray continuation byte", "\"a<80>\"", 2),
        Arguments.of("truncated sequence before quote", "\"<E2><82>\"", 1),
        Arguments.of("truncated sequence at end", "\"<E2><82>", 1),
        Arguments.of("non-ASCII outside strings", "[<C3><A9>]", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void rejects(String description, String spec, int offset) {
    byte[] input = bytes(spec);
    MalformedJsonException e =
        catchThrowableOfType(MalformedJsonException.class, () -> jcs.canonicalize(input));
    assertThat(e).as(description).isNotNull().isNotInstanceOf(JsonTooDeepException.class);
    assertThat(e.offset()).as("offset for %s: %s", description, e.getMessage()).isEqualTo(offset);
    assertThat(e.getMessage())
        .startsWith("Malformed JSON at byte offset " + offset + ": ")
        .endsWith(".")
        .doesNotContain("\n");
  }

  /**
   * Numbers beyond the range of a double were once refused in every mode. Exact numbers (the
   * default, used for fingerprints) accept them, because they have an exact value that a handler
   * reading BigDecimal can use; only RFC 8785 mode, which must write them as doubles, refuses them.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"1e400|0|1e+400", "[-1e400]|1|[-1e+400]", "1.8e308|0|1.8e+308"})
  void numbersBeyondTheDoubleRangeAreRefusedOnlyInRfc8785Mode(
      String json, int offset, String exact) {
    MalformedJsonException e =
        catchThrowableOfType(
            MalformedJsonException.class,
            () -> jcs.withNumberMode(JsonCanonicalizer.NumberMode.RFC_8785).canonicalize(json));
    assertThat(e).isNotNull();
    assertThat(e.offset()).isEqualTo(offset);
    assertThat(e.getMessage()).endsWith("the number is outside the range of a double.");
    assertThat(jcs.canonicalize(json)).isEqualTo(exact);
  }

  @Test
  void messagesNeverEchoThePayload() {
    String[] inputs = {
      "{\"password\":\"hunter2\",\"password\":\"hunter2\"}",
      "{\"password\":\"hunter2\" \"x\"}",
      "[\"hunter2\", hunter2]",
      "hunter2",
      "[\"hunter2\\q\"]"
    };
    for (String input : inputs) {
      MalformedJsonException e =
          catchThrowableOfType(MalformedJsonException.class, () -> jcs.canonicalize(input));
      assertThat(e).as(input).isNotNull();
      assertThat(e.getMessage()).doesNotContain("hunter2").doesNotContain("password");
    }
  }
}
