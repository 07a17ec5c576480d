package dev.once.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What {@link StoredText} keeps, replaces and cuts. */
class StoredTextTest {
  @Test
  void ordinaryTextIsKeptAsItIs() {
    assertThat(StoredText.of("HTTP 503 from provider: \"busy\" ☕ \uD83D\uDE00\n", 100))
        .isEqualTo("HTTP 503 from provider: \"busy\" ☕ \uD83D\uDE00\n");
    assertThat(StoredText.of(null, 10)).isNull();
    assertThat(StoredText.of("", 10)).isEmpty();
  }

  @Test
  void nulsAndUnpairedSurrogatesBecomeReplacementCharacters() {
    assertThat(StoredText.of("\0a\uD800b\uDC00\uD800", 100))
        .isEqualTo("\uFFFDa\uFFFDb\uFFFD\uFFFD");
    assertThat(StoredText.of("\uDC00\uD800", 100)).isEqualTo("\uFFFD\uFFFD");
  }

  @Test
  void aTextOfExactlyTheLimitIsKeptAndALongerOneEndsInAnEllipsis() {
    assertThat(StoredText.of("abcde", 5)).isEqualTo("abcde");
    assertThat(StoredText.of("abcdef", 5)).isEqualTo("abcd…");
    assertThat(StoredText.of("abc\uD83D\uDE00", 5)).isEqualTo("abc\uD83D\uDE00");
    assertThat(StoredText.of("abc\uD83D\uDE00x", 5)).isEqualTo("abc…");
  }
}
