package dev.once.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.json.JsonCanonicalizer.NumberMode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Exact numbers agree with RFC 8785 wherever RFC 8785 loses nothing: on every literal that is the
 * shortest round-trip form of a double, in any spelling of its value. Checked on the 10,000 number
 * vectors of RFC 8785's reference implementation.
 */
class ExactNumbersTest {
  private static final JsonCanonicalizer EXACT = JsonCanonicalizer.create();
  private static final JsonCanonicalizer RFC_8785 = EXACT.withNumberMode(NumberMode.RFC_8785);

  @Test
  void shortestFormsOfDoublesCanonicalizeAsRfc8785DoesInAnySpelling() throws IOException {
    Random random = new Random(8785);
    List<String> mismatches = new ArrayList<>();
    for (String line : JcsTestVectors.numberLines()) {
      String expected = line.substring(line.indexOf(',') + 1);
      Decimal value = Decimal.of(new BigDecimal(expected));
      if (!value.canonical().equals(expected)) {
        mismatches.add(expected + ": the reference layout gives " + value.canonical());
      }
      for (String spelling : List.of(expected, value.spell(random), value.spell(random))) {
        String exact = EXACT.canonicalize(spelling);
        String rfc8785 = RFC_8785.canonicalize(spelling);
        if (!exact.equals(expected) || !rfc8785.equals(expected)) {
          mismatches.add(spelling + ": exact " + exact + ", RFC 8785 " + rfc8785);
        }
      }
    }
    assertThat(mismatches).as("%d mismatches", mismatches.size()).isEmpty();
  }
}
