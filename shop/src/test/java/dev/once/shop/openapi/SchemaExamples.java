package dev.once.shop.openapi;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Checks every example of an OpenAPI 3.0 description against the schema it illustrates: a schema's
 * own {@code example}, and a parameter's or media type's {@code example} against its {@code
 * schema}. What it checks is what the linters (redocly's {@code no-invalid-*-examples}, spectral's
 * {@code oas3-valid-*-example}) flag: the JSON type, {@code nullable}, {@code enum}, {@code
 * pattern}, string lengths, numeric bounds, required members, members of a closed object, array
 * items, {@code $ref} and {@code allOf}. It is not a full JSON Schema validator: {@code oneOf} and
 * {@code anyOf} pass when any branch does.
 */
final class SchemaExamples {
  private final JsonNode api;
  private final List<String> violations = new ArrayList<>();

  private SchemaExamples(JsonNode api) {
    this.api = api;
  }

  /** The examples that do not match their schema, each as "where: why"; empty when all do. */
  static List<String> violations(JsonNode api) {
    SchemaExamples examples = new SchemaExamples(api);
    examples.walk(api, "#");
    return examples.violations;
  }

  private void walk(JsonNode node, String where) {
    if (node.isObject()) {
      JsonNode example = node.get("example");
      if (example != null) {
        if (node.has("schema")) {
          check(example, node.get("schema"), where + "/example", violations);
        } else if (isSchema(node)) {
          check(example, node, where + "/example", violations);
        }
      }
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        if (!member.getKey().equals("example")) {
          walk(member.getValue(), where + "/" + member.getKey());
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), where + "/" + i);
      }
    }
  }

  private static boolean isSchema(JsonNode node) {
    return node.has("type") || node.has("$ref") || node.has("properties") || node.has("allOf");
  }

  private JsonNode resolve(JsonNode schema) {
    JsonNode resolved = schema;
    while (resolved.has("$ref")) {
      String ref = resolved.get("$ref").stringValue();
      if (!ref.startsWith("#/")) {
        throw new IllegalArgumentException("a reference outside the description: " + ref);
      }
      resolved = api.at(ref.substring(1));
      if (resolved.isMissingNode()) {
        throw new IllegalArgumentException("an unresolved reference: " + ref);
      }
    }
    return resolved;
  }

  private void check(JsonNode value, JsonNode schemaOrRef, String where, List<String> out) {
    JsonNode schema = resolve(schemaOrRef);
    if (value.isNull()) {
      if (!schema.path("nullable").asBoolean(false)) {
        out.add(where + ": null, but the schema is not nullable");
      }
      return;
    }
    for (JsonNode part : schema.path("allOf")) {
      check(value, part, where, out);
    }
    for (String alternatives : List.of("oneOf", "anyOf")) {
      if (schema.has(alternatives) && !anyMatches(value, schema.get(alternatives), where)) {
        out.add(where + ": matches none of " + alternatives);
      }
    }
    String type = schema.path("type").asString("");
    if (!type.isEmpty() && !hasType(value, type)) {
      out.add(where + ": " + value + " is not of type " + type);
      return;
    }
    if (schema.has("enum") && !contains(schema.get("enum"), value)) {
      out.add(where + ": " + value + " is not one of " + schema.get("enum"));
    }
    if (value.isString()) {
      checkString(value.stringValue(), schema, where, out);
    } else if (value.isNumber()) {
      checkNumber(value.decimalValue(), schema, where, out);
    } else if (value.isObject()) {
      checkObject(value, schema, where, out);
    } else if (value.isArray() && schema.has("items")) {
      for (int i = 0; i < value.size(); i++) {
        check(value.get(i), schema.get("items"), where + "[" + i + "]", out);
      }
    }
  }

  private boolean anyMatches(JsonNode value, JsonNode branches, String where) {
    for (JsonNode branch : branches) {
      List<String> found = new ArrayList<>();
      check(value, branch, where, found);
      if (found.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasType(JsonNode value, String type) {
    return switch (type) {
      case "string" -> value.isString();
      case "integer" -> value.isIntegralNumber();
      case "number" -> value.isNumber();
      case "boolean" -> value.isBoolean();
      case "array" -> value.isArray();
      case "object" -> value.isObject();
      default -> throw new IllegalArgumentException("an unknown type: " + type);
    };
  }

  private static boolean contains(JsonNode values, JsonNode value) {
    for (JsonNode candidate : values) {
      if (candidate.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static void checkString(String value, JsonNode schema, String where, List<String> out) {
    if (schema.has("pattern")
        && !Pattern.compile(schema.get("pattern").stringValue()).matcher(value).find()) {
      out.add(where + ": \"" + value + "\" does not match " + schema.get("pattern"));
    }
    int length = value.codePointCount(0, value.length());
    if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
      out.add(where + ": \"" + value + "\" is longer than " + schema.get("maxLength"));
    }
    if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
      out.add(where + ": \"" + value + "\" is shorter than " + schema.get("minLength"));
    }
  }

  private static void checkNumber(
      java.math.BigDecimal value, JsonNode schema, String where, List<String> out) {
    if (schema.has("minimum") && value.compareTo(schema.get("minimum").decimalValue()) < 0) {
      out.add(where + ": " + value + " is below " + schema.get("minimum"));
    }
    if (schema.has("maximum") && value.compareTo(schema.get("maximum").decimalValue()) > 0) {
      out.add(where + ": " + value + " is above " + schema.get("maximum"));
    }
  }

  private void checkObject(JsonNode value, JsonNode schema, String where, List<String> out) {
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.stringValue())) {
        out.add(where + ": the required member " + required.stringValue() + " is missing");
      }
    }
    JsonNode properties = schema.path("properties");
    boolean closed =
        schema.path("additionalProperties").isBoolean()
            && !schema.get("additionalProperties").booleanValue();
    for (Iterator<Map.Entry<String, JsonNode>> members = value.properties().iterator();
        members.hasNext(); ) {
      Map.Entry<String, JsonNode> member = members.next();
      if (properties.has(member.getKey())) {
        check(
            member.getValue(), properties.get(member.getKey()), where + "." + member.getKey(), out);
      } else if (closed) {
        out.add(where + ": the member " + member.getKey() + " is not in the schema");
      }
    }
  }
}
