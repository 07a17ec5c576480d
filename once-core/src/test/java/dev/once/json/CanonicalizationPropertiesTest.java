package dev.once.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.json.JsonCanonicalizer.NumberMode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Fingerprints rest on one property: two spellings of the same JSON value canonicalize to the same
 * bytes. Random documents are written once compactly and once with random whitespace, shuffled
 * members, other number spellings and escaped characters. A number is a double; its other spellings
 * are those of its exact decimal value in {@link NumberMode#EXACT} (see {@link Decimal}) and, in
 * {@link NumberMode#RFC_8785}, also decimals that only round to the same double (its exact binary
 * expansion, Java's {@code Double.toString}).
 */
class CanonicalizationPropertiesTest {

  @Property(tries = 300)
  void everySpellingOfAValueHasTheSameCanonicalForm(
      @ForAll long seed, @ForAll NumberMode numberMode) {
    JsonCanonicalizer jcs = JsonCanonicalizer.create().withNumberMode(numberMode);
    Random random = new Random(seed);
    Object value = randomValue(random, 0);

    String plain = write(value, new Random(seed), null);
    String fancy = write(value, new Random(~seed), numberMode);

    assertThat(jcs.canonicalize(fancy)).isEqualTo(jcs.canonicalize(plain));
  }

  @Property(tries = 300)
  void canonicalFormIsAFixedPoint(@ForAll long seed, @ForAll NumberMode numberMode) {
    JsonCanonicalizer jcs = JsonCanonicalizer.create().withNumberMode(numberMode);
    String once =
        jcs.canonicalize(write(randomValue(new Random(seed), 0), new Random(seed), numberMode));
    assertThat(jcs.canonicalize(once)).isEqualTo(once);
  }

  private static Object randomValue(Random random, int depth) {
    int kind = random.nextInt(depth >= 4 ? 5 : 7);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return random.nextBoolean();
      case 2:
        return randomNumber(random);
      case 3:
      case 4:
        return randomString(random);
      case 5:
        {
          List<Object> list = new ArrayList<>();
          for (int i = random.nextInt(5); i > 0; i--) {
            list.add(randomValue(random, depth + 1));
          }
          return list;
        }
      default:
        {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = random.nextInt(5); i > 0; i--) {
            map.put(randomString(random), randomValue(random, depth + 1));
          }
          return map;
        }
    }
  }

  private static double randomNumber(Random random) {
    switch (random.nextInt(4)) {
      case 0:
        return random.nextInt(2001) - 1000;
      case 1:
        return (random.nextInt(200001) - 100000) / 100.0;
      case 2:
        return random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
      default:
        double d = Double.longBitsToDouble(random.nextLong());
        return Double.isFinite(d) ? d : 0.5;
    }
  }

  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(8); i > 0; i--) {
      switch (random.nextInt(4)) {
        case 0 -> s.append((char) ('a' + random.nextInt(26)));
        case 1 -> s.append((char) random.nextInt(0x20));
        case 2 -> s.append((char) (0xA0 + random.nextInt(0xD000)));
        default -> s.appendCodePoint(0x1F600 + random.nextInt(64));
      }
    }
    return s.toString();
  }

  /**
   * JSON text of {@code value}; unless {@code fancy} is null it varies everything that must not
   * matter, numbers as far as they may in that mode.
   */
  private static String write(Object value, Random random, NumberMode fancy) {
    StringBuilder out = new StringBuilder();
    write(value, random, fancy, out);
    return out.toString();
  }

  private static void write(Object value, Random random, NumberMode fancy, StringBuilder out) {
    space(random, fancy, out);
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean b) {
      out.append(b);
    } else if (value instanceof Double d) {
      out.append(number(d, random, fancy));
    } else if (value instanceof String s) {
      string(s, random, fancy, out);
    } else if (value instanceof List<?> list) {
      out.append('[');
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(list.get(i), random, fancy, out);
      }
      space(random, fancy, out);
      out.append(']');
    } else {
      List<Map.Entry<String, Object>> members = new ArrayList<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        members.add(Map.entry((String) e.getKey(), e.getValue() == null ? NULL : e.getValue()));
      }
      if (fancy != null) {
        Collections.shuffle(members, random);
      }
      out.append('{');
      for (int i = 0; i < members.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        space(random, fancy, out);
        string(members.get(i).getKey(), random, fancy, out);
        space(random, fancy, out);
        out.append(':');
        Object v = members.get(i).getValue();
        write(v == NULL ? null : v, random, fancy, out);
      }
      space(random, fancy, out);
      out.append('}');
    }
    space(random, fancy, out);
  }

  private static final Object NULL = new Object();

  private static String number(double d, Random random, NumberMode fancy) {
    String shortest = EcmaScriptNumbers.format(d);
    if (fancy == null) {
      return shortest;
    }
    if (fancy == NumberMode.EXACT || random.nextBoolean()) {
      return Decimal.of(new BigDecimal(shortest)).spell(random);
    }
    return switch (random.nextInt(3)) {
      case 0 -> new BigDecimal(d).toString().replace("E", random.nextBoolean() ? "e" : "E");
      case 1 -> Double.toString(d);
      default -> new BigDecimal(d).toPlainString();
    };
  }

  private static void string(String s, Random random, NumberMode fancy, StringBuilder out) {
    out.append('"');
    // Per code point, so both halves of a surrogate pair are escaped or neither is.
    s.codePoints()
        .forEach(
            cp -> {
              boolean escape =
                  cp < 0x20 || cp == '"' || cp == '\\' || (fancy != null && random.nextInt(4) == 0);
              if (!escape) {
                out.appendCodePoint(cp);
                return;
              }
              for (char c : Character.toChars(cp)) {
                out.append(String.format("\\u%04x", (int) c));
              }
            });
    out.append('"');
  }

  private static void space(Random random, NumberMode fancy, StringBuilder out) {
    if (fancy != null) {
      for (int i = random.nextInt(3); i > 0; i--) {
        out.append(" \t\n\r".charAt(random.nextInt(4)));
      }
    }
  }
}
