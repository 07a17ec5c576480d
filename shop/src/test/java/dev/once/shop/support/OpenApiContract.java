package dev.once.shop.support;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.interaction.response.CustomResponseValidator;
import com.atlassian.oai.validator.model.ApiOperation;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.Response;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The shop's own OpenAPI description ({@code /v3/api-docs}) as a test oracle: every answer that
 * {@link ShopHttp} and {@link RawHttp} receive passes through {@link #assertConforms}, so an answer
 * the description does not allow fails the test that produced it, and an endpoint added later is
 * covered without any test naming it.
 *
 * <p>The description is fetched once per test JVM, over HTTP, from the first shop a test talks to
 * (that fetch is not validated), and parsed into one shared validator (swagger-request-validator,
 * which is thread-safe). Every shop of a test JVM (the Spring context of {@link
 * ShopIntegrationTest}, a {@link ChildShop}, a small-pool shop) runs the same code, so answers of
 * all of them are checked against that one description.
 *
 * <p><b>What is checked.</b> Only answers: requests are never validated, because tests send
 * malformed requests on purpose. For the operation of the request's method and path: the status
 * must be documented, a success or redirection under its own code ({@value #SUCCESS_UNDOCUMENTED}:
 * an operation's {@code default} response stands for the rare problems only); the Content-Type must
 * be one the response documents; the body must be present exactly when a schema is documented and
 * conform to it; documented headers marked required must be present and every documented header
 * must match its schema. The validation is strict: every validator message is an error, and a body
 * member that the schema does not declare is an error ({@value #ADDITIONAL_PROPERTIES} is raised to
 * ERROR, which makes the validator treat every object schema with {@code properties} and no {@code
 * additionalProperties} as closed), so the description cannot hide a field.
 *
 * <p><b>Answers without an operation.</b>
 *
 * <ul>
 *   <li>Paths that are not the API are not validated: {@code /actuator/**}, {@code /swagger-ui**}
 *       and {@code /v3/api-docs**} (the description itself). Neither are {@code HEAD} and {@code
 *       OPTIONS}, which the framework answers from the other mappings, without a body.
 *   <li>Every other request whose path or method the description does not have (an unknown path
 *       such as {@code /v1/nope} or {@code /no/such/page}, the container's {@code /error} asked for
 *       directly, a DELETE on a documented path, a method name Tomcat cannot parse) must be refused
 *       with an RFC 9457 problem: a 4xx status, Content-Type {@code application/problem+json}, a
 *       body that conforms to the description's {@value #PROBLEM} (strictly, as above), and a
 *       {@code status} member equal to the HTTP status. This is checked with the same validator,
 *       through a synthetic operation whose only response is a {@code default} problem; the
 *       operation is added to a copy of the description and never to the one the documented answers
 *       are checked against.
 * </ul>
 */
public final class OpenApiContract {
  /** The validator's key for body members that the schema does not declare. */
  static final String ADDITIONAL_PROPERTIES = "validation.schema.additionalProperties";

  /** The key of a success status that the operation documents only through its default. */
  static final String SUCCESS_UNDOCUMENTED = "contract.response.status.undocumented";

  /** The description's schema of every problem. */
  static final String PROBLEM = "#/components/schemas/Problem";

  private static final String PROBLEM_MEDIA_TYPE = "application/problem+json";

  /** The synthetic path whose only answer is a problem; never a path of the shop. */
  private static final String UNDOCUMENTED = "/__undocumented__";

  private static final Set<String> PATH_OR_METHOD_UNKNOWN =
      Set.of("validation.request.path.missing", "validation.request.operation.notAllowed");

  private static final int BODY_IN_MESSAGE = 2_000;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static OpenApiContract shared;

  private final OpenApiInteractionValidator documented;
  private final OpenApiInteractionValidator undocumented;

  private OpenApiContract(String description) {
    this.documented = validator(description, OpenApiContract::successDocumented);
    this.undocumented =
        validator(withUndocumentedOperation(description), (r, o) -> ValidationReport.empty());
  }

  /**
   * The contract of the shop, fetched from {@code /v3/api-docs} of the shop on {@code port} on the
   * first call of the JVM and reused after that: every shop of a test JVM runs the same code.
   */
  public static synchronized OpenApiContract of(int port) {
    if (shared == null) {
      shared = new OpenApiContract(fetchDescription(port));
    }
    return shared;
  }

  /** A contract for the given description (JSON), for tests of the contract itself. */
  public static OpenApiContract of(String description) {
    return new OpenApiContract(description);
  }

  /**
   * Throws an {@link AssertionError} naming the request, the answer and every violation when the
   * answer to {@code method target} does not conform to the description (see the class comment for
   * what is checked). {@code target} is the request target: the raw path and query.
   */
  public void assertConforms(String method, String target, ShopResponse answer) {
    List<String> violations = violations(method, target, answer);
    if (!violations.isEmpty()) {
      throw new AssertionError(describe(method, target, answer, violations));
    }
  }

  /** The violations of the answer to {@code method target}; empty when it conforms. */
  public List<String> violations(String method, String target, ShopResponse answer) {
    String path = pathOf(target);
    String upper = method.toUpperCase(Locale.ROOT);
    if (notTheApi(path) || upper.equals("HEAD") || upper.equals("OPTIONS")) {
      return List.of();
    }
    SimpleResponse response = response(answer);
    Optional<Request.Method> known = knownMethod(method);
    if (known.isPresent()) {
      ValidationReport report = documented.validateResponse(path, known.get(), response);
      boolean unknown =
          report.getMessages().stream().anyMatch(m -> PATH_OR_METHOD_UNKNOWN.contains(m.getKey()));
      if (!unknown) {
        return messages(report);
      }
    }
    List<String> violations = new ArrayList<>();
    for (String message :
        messages(undocumented.validateResponse(UNDOCUMENTED, Request.Method.GET, response))) {
      violations.add(
          "[undocumented] no operation "
              + printable(method)
              + " "
              + path
              + ", so checked as a problem "
              + message.replace("'" + UNDOCUMENTED + "'", "'" + path + "'"));
    }
    if (answer.status() < 400 || answer.status() > 499) {
      violations.add(
          "[undocumented] the description has no operation "
              + printable(method)
              + " "
              + path
              + ", so the answer must be a 4xx problem, not "
              + answer.status());
    }
    problemStatus(answer)
        .filter(status -> status != answer.status())
        .ifPresent(
            status ->
                violations.add(
                    "[undocumented] the problem's status member "
                        + status
                        + " differs from the HTTP status "
                        + answer.status()));
    return violations;
  }

  private static OpenApiInteractionValidator validator(
      String description, CustomResponseValidator extra) {
    try {
      return OpenApiInteractionValidator.createForInlineApiSpecification(description)
          .withCustomResponseValidation(extra)
          .withLevelResolver(
              LevelResolver.create()
                  .withDefaultLevel(ValidationReport.Level.ERROR)
                  .withLevel(ADDITIONAL_PROPERTIES, ValidationReport.Level.ERROR)
                  .build())
          // "/v1/accounts/" is not "/v1/accounts": the shop matches trailing slashes strictly too.
          .withStrictOperationPathMatching()
          .build();
    } catch (OpenApiInteractionValidator.ApiLoadException e) {
      throw new AssertionError(
          "The shop's OpenAPI description (/v3/api-docs) is not valid OpenAPI: " + e.getMessage(),
          e);
    }
  }

  /**
   * A success or redirection must be documented under its own status: an operation's {@code
   * default} response stands for the rare problems only (406, 431, 500, ...), so it must not let a
   * 200 pass where the operation answers 201.
   */
  private static ValidationReport successDocumented(Response response, ApiOperation operation) {
    int status = response.getStatus();
    ApiResponses responses = operation.getOperation().getResponses();
    if (status >= 400 || (responses != null && responses.containsKey(String.valueOf(status)))) {
      return ValidationReport.empty();
    }
    return ValidationReport.singleton(
        ValidationReport.Message.create(
                SUCCESS_UNDOCUMENTED,
                "Status "
                    + status
                    + " is not documented for "
                    + operation.getMethod()
                    + " "
                    + operation.getApiPath().original()
                    + "; its default response stands for problems only.")
            .build());
  }

  /** The description plus {@code GET /__undocumented__}, whose only answer is a problem. */
  private static String withUndocumentedOperation(String description) {
    ObjectNode api = (ObjectNode) JSON.readTree(description);
    JsonNode problem = api.path("components").path("schemas").path("Problem");
    if (!problem.isObject()) {
      throw new AssertionError(
          "The shop's OpenAPI description has no " + PROBLEM + ", the schema of every problem");
    }
    ObjectNode answer = JSON.createObjectNode();
    answer.put("description", "Any request the description has no operation for: a problem.");
    answer
        .putObject("content")
        .putObject(PROBLEM_MEDIA_TYPE)
        .putObject("schema")
        .put("$ref", PROBLEM);
    ObjectNode operation = JSON.createObjectNode();
    operation.put("operationId", "undocumented");
    operation.putObject("responses").set("default", answer);
    ObjectNode paths = api.has("paths") ? (ObjectNode) api.get("paths") : api.putObject("paths");
    paths.putObject(UNDOCUMENTED).set("get", operation);
    return JSON.writeValueAsString(api);
  }

  private static String fetchDescription(int port) {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v3/api-docs"))
            .timeout(Duration.ofSeconds(60))
            .build();
    try {
      HttpResponse<String> response =
          client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (response.statusCode() != 200) {
        throw new AssertionError(
            "GET /v3/api-docs answered " + response.statusCode() + ": " + response.body());
      }
      return response.body();
    } catch (IOException e) {
      throw new AssertionError("cannot fetch /v3/api-docs from the shop on port " + port, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while fetching /v3/api-docs", e);
    }
  }

  private static SimpleResponse response(ShopResponse answer) {
    SimpleResponse.Builder response = SimpleResponse.Builder.status(answer.status());
    answer.headers().map().forEach(response::withHeader);
    if (answer.body() != null && !answer.body().isEmpty()) {
      response.withBody(answer.body());
    }
    return response.build();
  }

  private static Optional<Request.Method> knownMethod(String method) {
    for (Request.Method known : Request.Method.values()) {
      if (known.name().equals(method)) {
        return Optional.of(known);
      }
    }
    return Optional.empty();
  }

  private static String pathOf(String target) {
    String path = target;
    if (!path.startsWith("/")) {
      // absolute-form (http://host/path) or asterisk-form: the path of the URI, if any
      try {
        path = Optional.ofNullable(URI.create(target).getRawPath()).orElse("");
      } catch (IllegalArgumentException e) {
        return target;
      }
    }
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }

  /** The method with control characters escaped, as a test may send any bytes as a method. */
  private static String printable(String text) {
    StringBuilder printable = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                printable.append(String.format("\\u%04x", c));
              } else {
                printable.appendCodePoint(c);
              }
            });
    return printable.toString();
  }

  private static boolean notTheApi(String path) {
    return path.equals("/actuator")
        || path.startsWith("/actuator/")
        || path.startsWith("/swagger-ui")
        || path.startsWith("/v3/api-docs");
  }

  private static Optional<Integer> problemStatus(ShopResponse answer) {
    try {
      JsonNode status = JSON.readTree(answer.body()).get("status");
      return status != null && status.isInt() ? Optional.of(status.asInt()) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty(); // not JSON: the schema validation has said so already
    }
  }

  private static List<String> messages(ValidationReport report) {
    List<String> messages = new ArrayList<>();
    for (ValidationReport.Message message : report.getMessages()) {
      if (message.getLevel() == ValidationReport.Level.IGNORE
          || message.getLevel() == ValidationReport.Level.INFO) {
        continue;
      }
      StringBuilder line = new StringBuilder();
      line.append('[').append(message.getKey()).append("] ").append(message.getMessage());
      for (String info : message.getAdditionalInfo()) {
        line.append(" (").append(info).append(')');
      }
      for (ValidationReport.Message nested : message.getNestedMessages()) {
        line.append("\n      - [").append(nested.getKey()).append("] ").append(nested.getMessage());
      }
      messages.add(line.toString());
    }
    return messages;
  }

  private static String describe(
      String method, String target, ShopResponse answer, List<String> violations) {
    StringBuilder message = new StringBuilder();
    message
        .append("The answer to ")
        .append(printable(method))
        .append(' ')
        .append(target)
        .append(" does not conform to the shop's OpenAPI description (/v3/api-docs):\n");
    for (String violation : violations) {
      message.append("  - ").append(violation).append('\n');
    }
    message.append("  status: ").append(answer.status()).append('\n');
    answer
        .headers()
        .map()
        .forEach(
            (name, values) ->
                message.append("  ").append(name).append(": ").append(values).append('\n'));
    String body = answer.body() == null ? "" : answer.body();
    message
        .append("  body: ")
        .append(
            body.length() <= BODY_IN_MESSAGE
                ? body
                : body.substring(0, BODY_IN_MESSAGE)
                    + "… ("
                    + (body.length() - BODY_IN_MESSAGE)
                    + " more characters)");
    return message.toString();
  }
}
