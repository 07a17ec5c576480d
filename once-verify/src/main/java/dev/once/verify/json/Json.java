package dev.once.verify.json;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.MissingNode;

/**
 * Every JSON read of once-verify goes through Jackson here: the shop's and psp-simulator's answers,
 * the reports the tests read back. Lenient where answers may not be JSON at all (a proxy's HTML, an
 * empty body): such a text reads as a missing node.
 */
public final class Json {
  /**
   * Jackson's default read limits (nesting, number length) lie below what a canonical body may hold
   * ({@code fingerprint --max-depth} goes to 10000; exact-mode numbers may be long): no limits but
   * the document's own.
   */
  private static final JsonMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNestingDepth(Integer.MAX_VALUE)
                          .maxNumberLength(Integer.MAX_VALUE)
                          .maxStringLength(Integer.MAX_VALUE)
                          .maxNameLength(Integer.MAX_VALUE)
                          .maxDocumentLength(-1)
                          .maxTokenCount(-1)
                          .build())
                  .build())
          .build();

  private Json() {}

  /** The shared mapper (thread-safe once built). */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /**
   * The tree of {@code json}; a {@link MissingNode} when it is null, empty or not JSON, so that
   * {@code path(...)} on it finds nothing.
   */
  public static JsonNode tree(String json) {
    if (json == null || json.isBlank()) {
      return MissingNode.getInstance();
    }
    try {
      JsonNode node = MAPPER.readTree(json);
      return node == null ? MissingNode.getInstance() : node;
    } catch (JacksonException e) {
      return MissingNode.getInstance();
    }
  }

  /** The string value of the top-level member {@code name} of {@code json}, or null. */
  public static String string(String json, String name) {
    return string(tree(json), name);
  }

  /** The string value of member {@code name} of {@code node}, or null. */
  public static String string(JsonNode node, String name) {
    JsonNode value = node.path(name);
    return value.isString() ? value.stringValue() : null;
  }

  /** The number value of the top-level member {@code name} of {@code json} as text, or null. */
  public static String number(String json, String name) {
    JsonNode value = tree(json).path(name);
    return value.isNumber() ? value.asString() : null;
  }
}
