package dev.once.psp;

import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Strict JSON reading (one object, no duplicate members, nothing after it) and writing. */
final class Json {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private Json() {}

  /** The body as a JSON object, or a 400 {@code malformed-json} problem. */
  static JsonNode object(byte[] body) {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JacksonException e) {
      throw Problem.malformedJson("The body is not well-formed JSON: " + e.getOriginalMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw Problem.malformedJson("The body is empty; a JSON object is required.");
    }
    if (!node.isObject()) {
      throw Problem.malformedJson("The body must be a JSON object.");
    }
    return node;
  }

  /** Rejects a member whose name is not in {@code allowed} (422, naming it). */
  static void onlyMembers(JsonNode object, Set<String> allowed) {
    for (String name : object.propertyNames()) {
      if (!allowed.contains(name)) {
        throw Problem.invalidRequest(name, "Unknown member \"" + name + "\".");
      }
    }
  }

  static String string(JsonNode object, String name) {
    JsonNode value = required(object, name);
    if (!value.isString()) {
      throw Problem.invalidRequest(name, name + " must be a JSON string.");
    }
    return value.stringValue();
  }

  static long integer(JsonNode object, String name) {
    JsonNode value = required(object, name);
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw Problem.invalidRequest(name, name + " must be a JSON integer.");
    }
    return value.longValue();
  }

  static double number(JsonNode object, String name) {
    JsonNode value = required(object, name);
    if (!value.isNumber()) {
      throw Problem.invalidRequest(name, name + " must be a JSON number.");
    }
    return value.doubleValue();
  }

  private static JsonNode required(JsonNode object, String name) {
    JsonNode value = object.get(name);
    if (value == null) {
      throw Problem.invalidRequest(name, name + " is required.");
    }
    return value;
  }

  /** A journal line as a JSON object; throws an exception saying why it is not one. */
  static JsonNode tree(String line) {
    JsonNode node = MAPPER.readTree(line);
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return node;
  }

  static byte[] write(Object value) {
    return MAPPER.writeValueAsBytes(value);
  }
}
