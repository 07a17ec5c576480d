package dev.once.verify.fingerprint;

import dev.once.json.JsonCanonicalizer;
import dev.once.verify.json.Json;
import java.util.ArrayList;
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

  private final JsonParser parser;

  private CanonicalJson(JsonParser parser) {
    this.parser = parser;
  }

  /**
   * The tree of {@code canonical}: a {@code Map<String, Object>} for an object (member names
   * decoded), a {@code List<Object>} for an array, a {@link Leaf} otherwise.
   */
  static Object parse(String canonical) {
    try (JsonParser parser = Json.mapper().createParser(canonical)) {
      CanonicalJson reader = new CanonicalJson(parser);
      Object value = reader.value(parser.nextToken());
      if (parser.nextToken() != null) {
        throw new IllegalArgumentException("not canonical JSON: content after the value");
      }
      return value;
    }
  }

  private Object value(JsonToken token) {
    if (token == null) {
      throw new IllegalArgumentException("not canonical JSON: no value");
    }
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> members = new LinkedHashMap<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
          String name = parser.currentName();
          members.put(name, value(parser.nextToken()));
        }
        return members;
      }
      case START_ARRAY -> {
        List<Object> items = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
          items.add(value(t));
        }
        return items;
      }
      case VALUE_STRING -> {
        return new Leaf(STRINGS.canonicalize(Json.mapper().writeValueAsString(parser.getString())));
      }
      default -> {
        return new Leaf(parser.getString());
      }
    }
  }
}
