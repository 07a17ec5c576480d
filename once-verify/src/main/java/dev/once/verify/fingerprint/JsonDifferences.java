package dev.once.verify.fingerprint;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where two canonical JSON trees ({@link CanonicalJson}) differ, as lines that name each place by
 * its JSON Pointer (RFC 6901): a member only one body has, values that differ, arrays of different
 * lengths, values of different JSON types.
 */
final class JsonDifferences {
  private final int limit;
  private final List<String> lines = new ArrayList<>();
  private int found;

  private JsonDifferences(int limit) {
    this.limit = limit;
  }

  /** The differences between {@code first} and {@code second}: at most {@code limit} lines. */
  static Result of(Object first, Object second, int limit) {
    JsonDifferences differences = new JsonDifferences(limit);
    differences.compare("", first, second);
    return new Result(differences.lines, differences.found);
  }

  /**
   * The differences found.
   *
   * @param lines the first of them, one line each
   * @param total how many there are in all
   */
  record Result(List<String> lines, int total) {}

  @SuppressWarnings("unchecked")
  private void compare(String pointer, Object first, Object second) {
    if (first instanceof Map<?, ?> a && second instanceof Map<?, ?> b) {
      TreeSet<String> names = new TreeSet<>((java.util.Set<String>) a.keySet());
      names.addAll((java.util.Set<String>) b.keySet());
      for (String name : names) {
        String at = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
        if (!a.containsKey(name)) {
          add(at + ": only in the second body, " + show(b.get(name)));
        } else if (!b.containsKey(name)) {
          add(at + ": only in the first body, " + show(a.get(name)));
        } else {
          compare(at, a.get(name), b.get(name));
        }
      }
    } else if (first instanceof List<?> a && second instanceof List<?> b) {
      if (a.size() != b.size()) {
        add(
            pointer(pointer)
                + ": "
                + a.size()
                + " items in the first body, "
                + b.size()
                + " in the second");
      }
      for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
        compare(pointer + "/" + i, a.get(i), b.get(i));
      }
    } else if (!first.equals(second)) {
      String note = "";
      if (kind(first).equals(kind(second))) {
        note = kind(first).equals("number") ? " (different values)" : "";
      } else {
        note = " (a " + kind(first) + ", then a " + kind(second) + ")";
      }
      add(
          pointer(pointer)
              + ": "
              + show(first)
              + " in the first body, "
              + show(second)
              + " in the second"
              + note);
    }
  }

  private void add(String line) {
    found++;
    if (lines.size() < limit) {
      lines.add(line);
    }
  }

  private static String pointer(String pointer) {
    return pointer.isEmpty() ? "(the whole body)" : pointer;
  }

  private static String kind(Object value) {
    if (value instanceof Map) {
      return "object";
    }
    if (value instanceof List) {
      return "array";
    }
    String text = ((CanonicalJson.Leaf) value).text();
    if (text.startsWith("\"")) {
      return "string";
    }
    if (text.equals("true") || text.equals("false")) {
      return "boolean";
    }
    return text.equals("null") ? "null" : "number";
  }

  private static String show(Object value) {
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List<?> list) {
      return "an array of " + list.size();
    }
    String text = ((CanonicalJson.Leaf) value).text();
    return text.length() <= 80 ? text : text.substring(0, 77) + "...";
  }
}
