package dev.once.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.CharRange;

/** The key grammar as properties: what is accepted, what is refused, and quoting. */
class IdempotencyKeyPropertiesTest {

  @Property
  void everyVisibleAsciiKeyOfAllowedLengthParsesToItself(@ForAll("bareKeys") String key) {
    assertThat(IdempotencyKey.parse(key).value()).isEqualTo(key);
  }

  @Property
  void anyKeyQuotedAsAnSfStringIsTheSameKey(@ForAll("bareKeys") String key) {
    String quoted = "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    assertThat(IdempotencyKey.parse(quoted)).isEqualTo(new IdempotencyKey(key));
  }

  @Property
  void aControlCharacterOrSpaceAnywhereIsRefused(
      @ForAll("bareKeys") String key,
      @ForAll @CharRange(from = '\u0000', to = '\u0020') char control) {
    String bad = key.substring(0, key.length() / 2) + control + key.substring(key.length() / 2);
    assertThatThrownBy(() -> IdempotencyKey.parse(bad))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  @Property
  void nonAsciiIsRefused(
      @ForAll("bareKeys") String key, @ForAll @CharRange(from = '\u007f', to = '\uffff') char c) {
    String bad = c + key.substring(1);
    assertThatThrownBy(() -> IdempotencyKey.parse(bad))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  @Property
  void longerThan255IsRefused(@ForAll("bareKeys") String key) {
    String tooLong = key + "x".repeat(256 - key.length());
    assertThatThrownBy(() -> IdempotencyKey.parse(tooLong))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  @Provide
  Arbitrary<String> bareKeys() {
    // Visible ASCII; a leading double quote would make it a quoted string, so not first.
    Arbitrary<Character> first = Arbitraries.chars().range('!', '~').filter(c -> c != '"');
    Arbitrary<String> rest = Arbitraries.strings().withCharRange('!', '~').ofMaxLength(254);
    return first.flatMap(f -> rest.map(r -> f + r));
  }
}
