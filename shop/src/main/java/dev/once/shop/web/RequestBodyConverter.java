package dev.once.shop.web;

import dev.once.shop.problems.InvalidRequestException;
import dev.once.shop.problems.ShopProblem;
import dev.once.spring.OnceProperties;
import jakarta.validation.Validator;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Spring MVC's JSON converter, with the shop's {@link JsonMapper} ({@link JsonConfiguration}:
 * strict, within the filter's limits), reading each {@code @RequestBody} in two steps: first the
 * whole document (larger than {@code once.idempotency.http.max-body-size}: 413 {@code
 * payload-too-large}; deeper than {@code max-json-depth}: 400 {@code json-too-deep}; not JSON,
 * duplicate names, content after the value: 400 {@code malformed-json}; not an object: 422 {@code
 * validation-failed}), then its members into the record: an unknown member, or a JSON number,
 * boolean, array or object where a string belongs, is a 422 naming the field. The record's Bean
 * Validation runs after this. So of several faults the first in that order is answered, and among
 * members an unknown one first, then the first in the record's order, however the client ordered
 * them.
 *
 * <p>Jackson's exceptions are mapped by type (and a wrongly typed member by its record component's
 * constraint) into {@link InvalidRequestException}s, the shop's own refusals, rather than left to
 * Spring as an {@code HttpMessageNotReadableException}: Once stores the application's own refusals
 * under the key like any other answer of the endpoint, but not Spring's (never an error raised
 * before the handler: docs/idempotency.md, "Which answers are the handler's"). Thread-safe.
 */
public class RequestBodyConverter extends JacksonJsonHttpMessageConverter {
  private static final int MAX_NAME_IN_DETAIL = 64;

  private final Validator validator;
  private final int maxBytes;
  private final int maxDepth;

  public RequestBodyConverter(JsonMapper json, OnceProperties once, Validator validator) {
    super(json);
    this.validator = validator;
    this.maxBytes = (int) once.idempotency().http().maxBodySize().toBytes();
    this.maxDepth = once.idempotency().http().maxJsonDepth();
  }

  @Override
  public Object read(
      ResolvableType type, HttpInputMessage input, @Nullable Map<String, Object> hints) {
    Class<?> target = type.toClass();
    byte[] body = body(input);
    JavaType javaType = getMapper().constructType(type.getType());
    if (target.isRecord()) {
      // The common case, a valid body, in one pass: bound straight from the bytes by the same
      // strict mapper. Only a body it refuses is read again in two steps, to answer the fault the
      // two-step order names, whatever order the client wrote the members in.
      Object bound = bindInOnePass(body, javaType);
      if (bound != null) {
        return bound;
      }
    }
    JsonNode document = document(body);
    if (target.isRecord()) {
      document = inRecordOrder(document, target.getRecordComponents());
    }
    try {
      return getMapper().treeToValue(document, javaType);
    } catch (MismatchedInputException e) {
      if (e.getPath().isEmpty()) {
        throw e; // not about a field: the record does not fit the document, a bug (500)
      }
      String member = e.getPath().get(0).getPropertyName();
      String field = pathOf(e);
      if (e instanceof UnrecognizedPropertyException) {
        throw new InvalidRequestException(
            ShopProblem.VALIDATION_FAILED, field, "Field '" + field + "' is not allowed here.");
      }
      throw new InvalidRequestException(
          problem(target, member),
          field,
          "Field '" + field + "' must be " + expected(e.getTargetType()) + ".");
    }
  }

  /**
   * The record bound from {@code body} in one pass, or {@code null} if the mapper refuses it (or it
   * is the JSON {@code null}); the two-step read then finds out why. Its rules are the two-step
   * read's: the same mapper refuses unknown members, duplicate names, trailing content and wrongly
   * typed scalars.
   */
  private @Nullable Object bindInOnePass(byte[] body, JavaType type) {
    try {
      return getMapper().readValue(body, type);
    } catch (JacksonException e) {
      return null;
    }
  }

  /**
   * Refuses a member the record does not have (Jackson would notice it only after binding the
   * record's own members), and orders the others as the record does, so that of several faults the
   * same one is answered however the client ordered the members.
   */
  private JsonNode inRecordOrder(JsonNode document, RecordComponent[] components) {
    List<String> names = Stream.of(components).map(RecordComponent::getName).toList();
    for (String name : document.propertyNames()) {
      if (!names.contains(name)) {
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
    ObjectNode ordered = getMapper().createObjectNode();
    names.stream().filter(document::has).forEach(name -> ordered.set(name, document.get(name)));
    return ordered;
  }

  /** The body, refused if it is larger than the filter's limit. */
  private byte[] body(HttpInputMessage input) {
    byte[] body;
    try {
      body = input.getBody().readNBytes(maxBytes + 1);
    } catch (IOException e) {
      // The client went away mid-body (Tomcat's ClientAbortException, an EOF): nobody is left to
      // read the answer, and nothing on the server went wrong, so it is an ordinary refusal.
      throw new InvalidRequestException(
          ShopProblem.BAD_REQUEST, "The request body could not be read.", e);
    }
    if (body.length > maxBytes) {
      throw new InvalidRequestException(
          ShopProblem.PAYLOAD_TOO_LARGE, "The request body is larger than " + maxBytes + " bytes.");
    }
    return body;
  }

  private JsonNode document(byte[] body) {
    JsonNode document;
    try {
      document = getMapper().readTree(body);
    } catch (StreamConstraintsException e) {
      // Within the size limit, no name, number or string is longer than the other limits: depth.
      throw new InvalidRequestException(
          ShopProblem.JSON_TOO_DEEP,
          "The JSON body is nested deeper than " + maxDepth + " levels.");
    } catch (JacksonException e) {
      throw new InvalidRequestException(
          ShopProblem.MALFORMED_JSON, "The request body is not valid JSON.");
    }
    if (document.isMissingNode()) {
      throw new InvalidRequestException(
          ShopProblem.MALFORMED_JSON, "The request body is empty; send a JSON object.");
    }
    if (!document.isObject()) {
      throw new InvalidRequestException(
          ShopProblem.VALIDATION_FAILED, "The request body must be a JSON object.");
    }
    return document;
  }

  /** The member a mismatch is about, as {@code items[2].quantity}. */
  private static String pathOf(MismatchedInputException e) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference reference : e.getPath()) {
      if (reference.getPropertyName() != null) {
        if (path.length() > 0) {
          path.append('.');
        }
        String name = reference.getPropertyName();
        path.append(
            name.length() > MAX_NAME_IN_DETAIL
                ? name.substring(0, MAX_NAME_IN_DETAIL) + "…"
                : name);
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** What a member of {@code type} must be on the wire. */
  private static String expected(Class<?> type) {
    if (type == null || type == String.class) {
      return "a JSON string";
    }
    if (type == BigInteger.class
        || type == Long.class
        || type == Integer.class
        || type == long.class
        || type == int.class) {
      return "a JSON integer";
    }
    if (List.class.isAssignableFrom(type) || type.isArray()) {
      return "a JSON array";
    }
    return "a JSON object";
  }

  /** The problem of a wrongly typed field: the one its constraints name (the money formats). */
  private ShopProblem problem(Class<?> record, String field) {
    return Stream.ofNullable(
            validator.getConstraintsForClass(record).getConstraintsForProperty(field))
        .flatMap(property -> property.getConstraintDescriptors().stream())
        .map(ShopProblem::of)
        .filter(problem -> problem != ShopProblem.VALIDATION_FAILED)
        .findFirst()
        .orElse(ShopProblem.VALIDATION_FAILED);
  }

  /**
   * Makes the converter Spring MVC's JSON converter, in the place of Boot's and after Boot's
   * customizers. Not a bean itself: Boot would put a converter bean before the ones for {@code
   * byte[]} and {@code String}, which would then be written as JSON strings.
   */
  @Configuration(proxyBeanMethods = false)
  static class Registration implements WebMvcConfigurer {
    private final RequestBodyConverter converter;

    Registration(JsonMapper json, OnceProperties once, Validator validator) {
      this.converter = new RequestBodyConverter(json, once, validator);
    }

    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
      converters.withJsonConverter(converter);
    }
  }
}
