package dev.once.verify.fingerprint;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.json.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * A tree of the canonical JSON that {@link dev.once.json.JsonCanonicalizer} writes: compact,
 * members sorted, one spelling per value. Because the spelling is canonical, two leaves are equal
 * exactly when their text is: {@code 1}, {@code 1.0} and {@code 10e-1} are all written {@code 1},
 * and two numbers that differ in value are never written alike. Read with Jackson's streaming
 * parser, which keeps each number's text as written; a string leaf's text is its canonical spelling
 * again (RFC 8785's escapes), as Once's canonicalizer writes it.
 */
final class CanonicalJson {
  /** A string, number, {@code true}, {@code false} or {@code null}, as its canonical text. */
  record Leaf(String text) {}

  private static final JsonCanonicalizer STRINGS = JsonCanonicalizer.create();

  private CanonicalJson() {}

  /**
   * The tree of {@code canonical}: a {@code Map<String, Object>} for an object (member names
   * decoded), a {@code List<Object>} for an array, a {@link Leaf} otherwise. Read without
   * recursion, so that the deepest body Once takes ({@code --max-depth} 10000) reads too.
   */
  static Object parse(String canonical) {
    try (JsonParser parser = Json.mapper().createParser(canonical)) {
      Deque<Object> open = new ArrayDeque<>();
      Deque<String> names = new ArrayDeque<>();
      Object[] root = new Object[1];
      for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
        switch (t) {
          case PROPERTY_NAME -> names.push(parser.currentName());
          case START_OBJECT, START_ARRAY -> {
            Object container =
                t == JsonToken.START_OBJECT ? new LinkedHashMap<>() : new ArrayList<>();
            add(open, names, root, container);
            open.push(container);
          }
          case END_OBJECT, END_ARRAY -> open.pop();
          default -> add(open, names, root, leaf(parser, t));
        }
        if (open.isEmpty()) {
          if (parser.nextToken() != null) {
            throw new IllegalArgumentException("not canonical JSON: content after the value");
          }
          return root[0];
        }
      }
      throw new IllegalArgumentException("not canonical JSON: no value");
    }
  }

  @SuppressWarnings("unchecked")
  private static void add(Deque<Object> open, Deque<String> names, Object[] root, Object value) {
    Object parent = open.peek();
    if (parent == null) {
      root[0] = value;
    } else if (parent instanceof Map<?, ?> members) {
      ((Map<String, Object>) members).put(names.pop(), value);
    } else {
      ((List<Object>) parent).add(value);
    }
  }

  /** A number keeps the text Jackson read; a string is spelled canonically again. */
  private static Leaf leaf(JsonParser parser, JsonToken token) {
    if (token == JsonToken.VALUE_STRING) {
      return new Leaf(STRINGS.canonicalize(Json.mapper().writeValueAsString(parser.getString())));
    }
    return new Leaf(parser.getString());
  }
}
