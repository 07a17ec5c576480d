package dev.once.shop.openapi;

import dev.once.shop.problems.ShopProblem;
import dev.once.spring.web.OnceProblem;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents on every operation the problems it can answer with, as {@code application/problem+json}
 * answers with the shared {@code Problem} schema, one per status, whose description names the
 * slugs; lists the slugs in the operation's description; and adds what Once's filter does outside
 * the controllers: the required {@code Idempotency-Key} on every POST under {@code /v1}, {@code
 * Idempotent-Replayed} on the answers it can replay, and {@code Retry-After}.
 *
 * <p>No {@code default} answer: a status that an operation does not list is not in its contract,
 * and the tests' response validation fails on it.
 *
 * <p>An operation's problems are its own ({@link Problems}) and those of its kind:
 *
 * <ul>
 *   <li>every operation: {@code bad-request} and {@code invalid-parameter} (a request or query the
 *       server cannot decode), {@code unauthorized}, {@code not-acceptable}, {@code
 *       request-header-too-large}, {@code internal-error} and {@code service-unavailable};
 *   <li>with a JSON body: its format, size, media type and constraints;
 *   <li>a POST under {@code /v1}: the {@code Idempotency-Key} problems, the per-client caps (429
 *       {@code too-many-requests-in-flight}, {@code too-many-new-keys}, with {@code Retry-After})
 *       and 422 {@code answer-too-large}.
 * </ul>
 *
 * An operation that appends to the outbox lists {@code outbox-overloaded} (503, load shedding)
 * among its own problems.
 */
final class OperationProblems implements OperationCustomizer {
  private static final String PROBLEM_JSON = "application/problem+json";

  private final String typeBase;

  OperationProblems(String typeBase) {
    this.typeBase = typeBase;
  }

  /** A problem as the description shows it. */
  private record Documented(String slug, int status, String title) {
    static Documented of(ShopProblem problem) {
      return new Documented(problem.slug(), problem.status().value(), problem.title());
    }

    static Documented of(OnceProblem problem) {
      return new Documented(problem.slug(), problem.status(), problem.title());
    }
  }

  @Override
  public Operation customize(Operation operation, HandlerMethod handler) {
    boolean idempotent =
        path(handler).startsWith("/v1/") && handler.hasMethodAnnotation(PostMapping.class);
    boolean body =
        Arrays.stream(handler.getMethodParameters())
            .anyMatch(parameter -> parameter.hasParameterAnnotation(RequestBody.class));
    List<Documented> problems = problems(handler, idempotent, body);

    Map<String, List<Documented>> byStatus = new TreeMap<>();
    for (Documented problem : problems) {
      String status = Integer.toString(problem.status());
      List<Documented> same = byStatus.computeIfAbsent(status, s -> new ArrayList<>());
      if (same.stream().noneMatch(p -> p.slug().equals(problem.slug()))) {
        same.add(problem);
      }
    }
    ApiResponses responses = operation.getResponses();
    if (idempotent) {
      responses.values().forEach(this::replayable);
      operation.addParametersItem(
          new Parameter().$ref("#/components/parameters/" + OpenApiConfiguration.IDEMPOTENCY_KEY));
    }
    byStatus.forEach(
        (status, slugs) -> {
          ApiResponse response = response(slugs);
          if (idempotent && isStored(status)) {
            replayable(response);
          }
          if (status.equals("401")) {
            response.addHeaderObject(
                "WWW-Authenticate",
                new Header()
                    .required(true)
                    .description("The scheme to authenticate with: a bearer token.")
                    .schema(new StringSchema().example("Bearer realm=\"shop\"")));
          }
          if (status.equals("409")) {
            response.addHeaderObject(
                OpenApiConfiguration.RETRY_AFTER,
                new Header().$ref("#/components/headers/" + OpenApiConfiguration.RETRY_AFTER));
          }
          if (status.equals("503") || status.equals("429")) {
            response.addHeaderObject(
                OpenApiConfiguration.RETRY_AFTER,
                new Header()
                    .required(true)
                    .description("Seconds to wait before sending the request again.")
                    .schema(OpenApiConfiguration.retryAfterSchema()));
          }
          responses.addApiResponse(status, response);
        });
    operation.description(
        (operation.getDescription() == null ? "" : operation.getDescription() + "\n\n")
            + slugList(byStatus));
    return operation;
  }

  private static List<Documented> problems(
      HandlerMethod handler, boolean idempotent, boolean body) {
    List<Documented> problems = new ArrayList<>();
    problems.add(Documented.of(ShopProblem.BAD_REQUEST));
    problems.add(Documented.of(ShopProblem.INVALID_PARAMETER));
    if (idempotent) {
      problems.add(Documented.of(OnceProblem.KEY_MISSING));
      problems.add(Documented.of(OnceProblem.KEY_INVALID));
    }
    if (body) {
      problems.add(Documented.of(OnceProblem.MALFORMED_JSON));
      problems.add(Documented.of(OnceProblem.JSON_TOO_DEEP));
    }
    problems.add(Documented.of(OnceProblem.UNAUTHORIZED));
    Problems own = handler.getMethodAnnotation(Problems.class);
    if (own != null) {
      Arrays.stream(own.value()).map(Documented::of).forEach(problems::add);
    }
    if (idempotent) {
      problems.add(Documented.of(OnceProblem.KEY_IN_USE));
    }
    if (body || idempotent) {
      problems.add(Documented.of(OnceProblem.PAYLOAD_TOO_LARGE));
    }
    if (body) {
      problems.add(Documented.of(ShopProblem.UNSUPPORTED_MEDIA_TYPE));
      problems.add(Documented.of(ShopProblem.VALIDATION_FAILED));
    }
    if (idempotent) {
      problems.add(Documented.of(OnceProblem.KEY_REUSED));
      problems.add(Documented.of(OnceProblem.ANSWER_TOO_LARGE));
      problems.add(Documented.of(OnceProblem.TOO_MANY_IN_FLIGHT));
      problems.add(Documented.of(OnceProblem.TOO_MANY_NEW_KEYS));
    }
    problems.add(Documented.of(OnceProblem.SERVICE_UNAVAILABLE));
    problems.add(Documented.of(ShopProblem.NOT_ACCEPTABLE));
    problems.add(Documented.of(ShopProblem.REQUEST_HEADER_TOO_LARGE));
    problems.add(Documented.of(OnceProblem.INTERNAL_ERROR));
    return problems;
  }

  /**
   * Whether an answer of this status may be a replay: Once stores the handler's 2xx and 4xx
   * answers, never a 5xx or a 429 (its own caps, answered before the key is claimed), and
   * authentication (401) and the container (431) answer before it.
   */
  private static boolean isStored(String status) {
    return status.startsWith("4")
        && !status.equals("401")
        && !status.equals("429")
        && !status.equals("431");
  }

  private ApiResponse response(List<Documented> problems) {
    Documented first = problems.get(0);
    Map<String, Object> example = new LinkedHashMap<>();
    example.put("type", typeBase + first.slug());
    example.put("title", first.title());
    example.put("status", first.status());
    example.put("detail", "What went wrong with this request, in one sentence.");
    return new ApiResponse()
        .description(
            "A problem: "
                + problems.stream()
                    .map(p -> "`" + p.slug() + "` (" + p.title() + ")")
                    .collect(Collectors.joining(", "))
                + ".")
        .content(
            new Content()
                .addMediaType(
                    PROBLEM_JSON,
                    new MediaType()
                        .schema(
                            new Schema<>()
                                .$ref("#/components/schemas/" + OpenApiConfiguration.PROBLEM))
                        .example(example)));
  }

  private void replayable(ApiResponse response) {
    response.addHeaderObject(
        OpenApiConfiguration.REPLAYED,
        new Header().$ref("#/components/headers/" + OpenApiConfiguration.REPLAYED));
  }

  private static String slugList(Map<String, List<Documented>> byStatus) {
    StringBuilder list =
        new StringBuilder("**Problems**, by status (the slug that ends the problem's `type`):\n");
    byStatus.forEach(
        (status, problems) ->
            list.append("\n- ")
                .append(status)
                .append(": ")
                .append(
                    problems.stream()
                        .map(p -> "`" + p.slug() + "`")
                        .collect(Collectors.joining(", "))));
    return list.toString();
  }

  private static String path(HandlerMethod handler) {
    RequestMapping mapping =
        AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RequestMapping.class);
    return mapping == null || mapping.path().length == 0 ? "" : mapping.path()[0] + "/";
  }
}
