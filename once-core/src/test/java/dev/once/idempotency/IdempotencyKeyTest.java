package dev.once.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.idempotency.InvalidIdempotencyKeyException.Reason;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeyTest {

  @Test
  void acceptsEveryVisibleAsciiCharacter() {
    StringBuilder all = new StringBuilder();
    for (char c = 0x21; c <= 0x7E; c++) {
      if (c != '"') {
        all.append(c);
      }
    }
    assertThat(IdempotencyKey.parse(all.toString()).value()).isEqualTo(all.toString());
  }

  @Test
  void acceptsOneAnd255Characters() {
    assertThat(IdempotencyKey.parse("a").value()).isEqualTo("a");
    String longest = "k".repeat(255);
    assertThat(IdempotencyKey.parse(longest).value()).isEqualTo(longest);
  }

  @Test
  void rejects256Characters() {
    assertMalformed("k".repeat(256));
  }

  @Test
  void rejectsEmpty() {
    assertMalformed("");
    assertMalformed("\"\"");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a b",
        " a",
        "a\t",
        "a\u0000b",
        "a\u001fb",
        "a\u007fb",
        "caf\u00e9",
        "\u043a\u043b"
      })
  void rejectsSpacesControlAndNonAsciiCharacters(String value) {
    assertMalformed(value);
  }

  @Test
  void unquotesAnRfc8941String() {
    assertThat(IdempotencyKey.parse("\"abc\"")).isEqualTo(IdempotencyKey.parse("abc"));
    assertThat(IdempotencyKey.parse("\"a\\\"b\\\\c\"").value()).isEqualTo("a\"b\\c");
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"abc", "\"ab\"c", "\"a\\nb\"", "\"a b\"", "\"", "\"abc\\\""})
  void rejectsBrokenQuotedStrings(String value) {
    assertMalformed(value);
  }

  @Test
  void missingHeaderIsMissing() {
    assertThatThrownBy(() -> IdempotencyKey.fromHeaderValues(List.of()))
        .isInstanceOfSatisfying(
            InvalidIdempotencyKeyException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MISSING));
  }

  @Test
  void headerTwiceIsRepeated() {
    assertThatThrownBy(() -> IdempotencyKey.fromHeaderValues(List.of("a", "a")))
        .isInstanceOfSatisfying(
            InvalidIdempotencyKeyException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.REPEATED));
  }

  @Test
  void messageNeverEchoesTheValue() {
    assertThatThrownBy(() -> IdempotencyKey.parse("secret value"))
        .hasMessageNotContaining("secret");
  }

  private static void assertMalformed(String value) {
    assertThatThrownBy(() -> IdempotencyKey.parse(value))
        .isInstanceOfSatisfying(
            InvalidIdempotencyKeyException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.MALFORMED));
  }
}
