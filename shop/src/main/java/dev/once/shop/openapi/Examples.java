package dev.once.shop.openapi;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Gives every operation an example request (its JSON body) and an example answer (its success
 * body), composed from the examples of the members of their schemas, so that the examples always
 * agree with the records they describe; and marks every member of a success body as required, since
 * the shop writes every member of an answer, {@code null} where it has no value (those are marked
 * {@code nullable}).
 */
final class Examples implements OpenApiCustomizer {
  private static final String SCHEMAS = "#/components/schemas/";

  @Override
  public void customise(OpenAPI openApi) {
    if (openApi.getPaths() == null) {
      return;
    }
    Map<String, Schema> schemas =
        openApi.getComponents() == null || openApi.getComponents().getSchemas() == null
            ? Map.of()
            : openApi.getComponents().getSchemas();
    openApi
        .getPaths()
        .values()
        .forEach(item -> item.readOperations().forEach(operation -> customise(operation, schemas)));
  }

  private static void customise(Operation operation, Map<String, Schema> schemas) {
    if (operation.getRequestBody() != null) {
      exemplify(operation.getRequestBody().getContent(), schemas);
    }
    if (operation.getResponses() == null) {
      return;
    }
    for (Map.Entry<String, ApiResponse> response : operation.getResponses().entrySet()) {
      if (response.getKey().startsWith("2") && response.getValue().getContent() != null) {
        response
            .getValue()
            .getContent()
            .values()
            .forEach(media -> requireAll(media.getSchema(), schemas));
        exemplify(response.getValue().getContent(), schemas);
      }
    }
  }

  private static void exemplify(Content content, Map<String, Schema> schemas) {
    if (content == null) {
      return;
    }
    for (MediaType media : content.values()) {
      if (media.getExample() == null && media.getExamples() == null && media.getSchema() != null) {
        media.setExample(example(media.getSchema(), schemas));
      }
    }
  }

  /** The example value of {@code schema}: its own, or composed of its members' or items'. */
  private static Object example(Schema<?> schema, Map<String, Schema> schemas) {
    Schema<?> resolved = resolve(schema, schemas);
    if (resolved == null) {
      return null;
    }
    if (resolved.getExample() != null) {
      return typed(resolved, resolved.getExample());
    }
    if (resolved.getProperties() != null) {
      Map<String, Object> members = new LinkedHashMap<>();
      resolved
          .getProperties()
          .forEach((name, member) -> members.put(name, example(member, schemas)));
      return members;
    }
    if (resolved.getItems() != null) {
      List<Object> items = new ArrayList<>();
      items.add(example(resolved.getItems(), schemas));
      return items;
    }
    if (resolved.getEnum() != null && !resolved.getEnum().isEmpty()) {
      return resolved.getEnum().get(0);
    }
    return null;
  }

  /** An example given as text in an annotation, as the JSON value its schema's type calls for. */
  private static Object typed(Schema<?> schema, Object example) {
    if (example instanceof String text && "integer".equals(schema.getType())) {
      return new BigInteger(text);
    }
    if (example instanceof String text && "number".equals(schema.getType())) {
      return new BigDecimal(text);
    }
    return example;
  }

  /** Marks every member of {@code schema} and of the objects within it as required. */
  private static void requireAll(Schema<?> schema, Map<String, Schema> schemas) {
    Schema<?> resolved = resolve(schema, schemas);
    if (resolved == null) {
      return;
    }
    if (resolved.getProperties() != null) {
      resolved.setRequired(new ArrayList<>(resolved.getProperties().keySet()));
      resolved.getProperties().values().forEach(member -> requireAll(member, schemas));
    }
    if (resolved.getItems() != null) {
      requireAll(resolved.getItems(), schemas);
    }
  }

  private static Schema<?> resolve(Schema<?> schema, Map<String, Schema> schemas) {
    if (schema != null && schema.get$ref() != null && schema.get$ref().startsWith(SCHEMAS)) {
      return schemas.get(schema.get$ref().substring(SCHEMAS.length()));
    }
    return schema;
  }
}
