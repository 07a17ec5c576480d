package dev.once.verify.fingerprint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tree of the canonical JSON that {@link dev.once.json.JsonCanonicalizer} writes: compact,
 * members sorted, one spelling per value. Because the spelling is canonical, two leaves are equal
 * exactly when their text is: {@code 1}, {@code 1.0} and {@code 10e-1} are all written {@code 1},
 * and two numbers that differ in value are never written alike. Reads only that output, which is
 * well-formed by construction.
 */
final class CanonicalJson {
  /** A string, number, {@code true}, {@code false} or {@code null}, as its canonical text. */
  record Leaf(String text) {}

  private final String json;
  private int at;

  private CanonicalJson(String json) {
    this.json = json;
  }

  /**
   * The tree of {@code canonical}: a {@code Map<String, Object>} for an object (member names
   * decoded), a {@code List<Object>} for an array, a {@link Leaf} otherwise.
   */
  static Object parse(String canonical) {
    CanonicalJson reader = new CanonicalJson(canonical);
    Object value = reader.value();
    if (reader.at != canonical.length()) {
      throw new IllegalArgumentException("not canonical JSON: content after the value");
    }
    return value;
  }

  private Object value() {
    char c = json.charAt(at);
    if (c == '{') {
      Map<String, Object> members = new LinkedHashMap<>();
      at++;
      while (json.charAt(at) != '}') {
        int start = at;
        skipString();
        String name = decode(json.substring(start + 1, at - 1));
        at++; // ':'
        members.put(name, value());
        if (json.charAt(at) == ',') {
          at++;
        }
      }
      at++;
      return members;
    }
    if (c == '[') {
      List<Object> items = new ArrayList<>();
      at++;
      while (json.charAt(at) != ']') {
        items.add(value());
        if (json.charAt(at) == ',') {
          at++;
        }
      }
      at++;
      return items;
    }
    int start = at;
    if (c == '"') {
      skipString();
    } else {
      while (at < json.length() && ",]}".indexOf(json.charAt(at)) < 0) {
        at++;
      }
    }
    return new Leaf(json.substring(start, at));
  }

  private void skipString() {
    at++;
    while (json.charAt(at) != '"') {
      at += json.charAt(at) == '\\' ? 2 : 1;
    }
    at++;
  }

  /**
   * The text of a canonical string's content: RFC 8785 escapes only {@code " \ b f n r t uXXXX}.
   */
  private static String decode(String escaped) {
    StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = escaped.charAt(++i);
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) Integer.parseInt(escaped.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> out.append(e);
      }
    }
    return out.toString();
  }
}
