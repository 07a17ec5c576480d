package dev.once.shop.web;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A request body that is a JSON object, with accessors that validate as they read. Every refusal is
 * an {@link InvalidRequestException} naming the field: {@code validation-failed} for unknown,
 * missing and wrongly typed fields. Formats with their own problem (amounts, currencies) are
 * checked by their owners on the raw {@link JsonNode}. A JSON {@code null} counts as absent.
 */
public final class JsonBody {
  private static final int MAX_NAME_IN_DETAIL = 64;

  private final ObjectNode root;

  JsonBody(ObjectNode root) {
    this.root = Objects.requireNonNull(root, "root");
  }

  /**
   * Refuses a body with a member outside {@code names}, so that a misspelt optional field is an
   * error rather than silently ignored.
   */
  public JsonBody allowOnly(String... names) {
    Set<String> allowed = Set.copyOf(Arrays.asList(names));
    for (String name : root.propertyNames()) {
      if (!allowed.contains(name)) {
        String shown =
            name.length() > MAX_NAME_IN_DETAIL ? name.substring(0, MAX_NAME_IN_DETAIL) + "…" : name;
        throw new InvalidRequestException(
            ShopProblem.VALIDATION_FAILED,
            shown,
            "Field '"
                + shown
                + "' is not allowed here; allowed: "
                + String.join(", ", names)
                + ".");
      }
    }
    return this;
  }

  /** The member's value, or empty if it is absent or {@code null}. */
  public Optional<JsonNode> optional(String name) {
    JsonNode node = root.get(name);
    return node == null || node.isNull() ? Optional.empty() : Optional.of(node);
  }

  /** The member's value; refuses an absent or {@code null} member. */
  public JsonNode required(String name) {
    return optional(name)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    ShopProblem.VALIDATION_FAILED, name, "Field '" + name + "' is required."));
  }

  /** A required, non-blank string of at most {@code maxLength} characters. */
  public String requiredString(String name, int maxLength) {
    return string(name, required(name), maxLength);
  }

  /** An optional string of at most {@code maxLength} characters. */
  public Optional<String> optionalString(String name, int maxLength) {
    return optional(name).map(node -> string(name, node, maxLength));
  }

  private static String string(String name, JsonNode node, int maxLength) {
    if (!node.isString()) {
      throw invalid(name, "Field '" + name + "' must be a JSON string.");
    }
    String value = node.stringValue();
    if (value.isBlank()) {
      throw invalid(name, "Field '" + name + "' must not be blank.");
    }
    if (value.codePointCount(0, value.length()) > maxLength) {
      throw invalid(name, "Field '" + name + "' must be at most " + maxLength + " characters.");
    }
    // PostgreSQL text cannot hold U+0000; refusing it here keeps it a 422, not a database error.
    if (value.indexOf('\u0000') >= 0) {
      throw invalid(name, "Field '" + name + "' must not contain the NUL character.");
    }
    return value;
  }

  private static InvalidRequestException invalid(String name, String detail) {
    return new InvalidRequestException(ShopProblem.VALIDATION_FAILED, name, detail);
  }
}
