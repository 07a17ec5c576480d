package dev.once.shop.openapi;

import dev.once.shop.persistence.Text;
import dev.once.spring.OnceProperties;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.ExternalDocumentation;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import jakarta.validation.constraints.Pattern;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Objects;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI 3.0 description served at {@code /v3/api-docs} (UI at {@code /swagger-ui.html}). It
 * is kept in the code, next to what it describes: the controllers' annotations give each
 * operation's summary, description, success answer ({@link CreatedAt}, {@link Created}) and own
 * problems ({@link Problems}); the records and constraints that validate a body describe it. This
 * class adds what the controllers cannot show: the two bearer schemes, the shared {@code Problem}
 * schema, the {@code Idempotency-Key} parameter and the {@code Idempotent-Replayed} and {@code
 * Retry-After} headers, which Once's filter handles outside the controllers ({@link
 * OperationProblems}), and each operation's example request and answer ({@link Examples}).
 *
 * <p>The shop's test suite validates every answer it receives against this description, so it
 * describes the API that answers; see {@code docs/openapi.md}.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {
  /** Security scheme of the {@code /v1} API: a client's API key. */
  public static final String API_KEY_SCHEME = "apiKey";

  /** Security scheme of the {@code /admin} API: the admin token. */
  public static final String ADMIN_SCHEME = "adminToken";

  /** Name of the shared problem schema. */
  static final String PROBLEM = "Problem";

  /** Name of the shared {@code Idempotency-Key} parameter and header. */
  static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** Name of the shared replay header. */
  static final String REPLAYED = "Idempotent-Replayed";

  /** Name of the shared retry header. */
  static final String RETRY_AFTER = "Retry-After";

  /**
   * The key's grammar: 1 to 255 visible ASCII characters, or an RFC 8941 sf-string holding such a
   * key ({@code "abc"} is the key {@code abc}); a value that starts with a quote is an sf-string.
   */
  static final String KEY_PATTERN =
      "^(?:[!#-~][!-~]{0,254}|\"(?:[!#-\\[\\]-~]|\\\\[\"\\\\]){1,255}\")$";

  private static final String PROTOCOL =
      "https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/";

  private static final Annotation[] NONE = {};

  @Bean
  OpenAPI shopOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Once shop API")
                .version("v1")
                .description(
                    "The reference service of Once: accounts with an append-only ledger, payments"
                        + " through a payment provider, and orders that reserve stock. Every POST"
                        + " under /v1 is idempotent under its required `Idempotency-Key`: a retry"
                        + " gets the first answer again, with `Idempotent-Replayed: true`. Money"
                        + " amounts are JSON strings with at most 4 fraction digits; ids are"
                        + " strings. Every error is an RFC 9457 problem"
                        + " (`application/problem+json`) whose `type` ends with a stable slug;"
                        + " each operation lists the slugs it can answer with.")
                .license(
                    new License()
                        .name("Apache-2.0")
                        .url("https://www.apache.org/licenses/LICENSE-2.0"))
                .contact(new Contact().name("The Once maintainers").url("https://once.dev")))
        .servers(
            List.of(
                new Server()
                    .url("/")
                    .description("The shop that serves this description, at its own origin.")))
        .externalDocs(
            new ExternalDocumentation()
                .description("The Idempotency-Key HTTP header field (IETF draft)")
                .url(PROTOCOL))
        .components(
            new Components()
                .addSecuritySchemes(
                    API_KEY_SCHEME,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("A client's API key, from POST /admin/v1/clients."))
                .addSecuritySchemes(
                    ADMIN_SCHEME,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("The admin token (SHOP_ADMIN_TOKEN)."))
                .addSchemas(PROBLEM, problemSchema())
                .addParameters(IDEMPOTENCY_KEY, idempotencyKey())
                .addHeaders(REPLAYED, replayedHeader())
                .addHeaders(RETRY_AFTER, retryAfterHeader()));
  }

  @Bean
  OperationCustomizer operationProblems(OnceProperties once) {
    return new OperationProblems(once.idempotency().http().problemTypeBase());
  }

  @Bean
  OpenApiCustomizer examples() {
    return new Examples();
  }

  /**
   * Documents the constraints springdoc does not read itself: the limit of a {@link Text} field,
   * the pattern a constraint states with {@link SchemaPattern} (the currency code), and the pattern
   * of a constraint composed with {@link Pattern} (the money formats), anchored, since a JSON
   * Schema pattern matches anywhere in the value while Bean Validation matches all of it. Keeps a
   * string's example as written: swagger reads {@code "4.20"} as the number 4.2.
   */
  @Bean
  PropertyCustomizer composedConstraints() {
    return (schema, type) -> {
      for (Annotation annotation : Objects.requireNonNullElse(type.getCtxAnnotations(), NONE)) {
        if (annotation instanceof Text text) {
          schema.maxLength(text.max());
        }
        SchemaPattern documentedPattern =
            annotation.annotationType().getAnnotation(SchemaPattern.class);
        if (documentedPattern != null) {
          schema.pattern(documentedPattern.value());
        }
        if (annotation instanceof io.swagger.v3.oas.annotations.media.Schema documented
            && !documented.example().isEmpty()
            && "string".equals(schema.getType())) {
          schema.setExample(documented.example());
        }
        Pattern pattern = annotation.annotationType().getAnnotation(Pattern.class);
        if (pattern != null) {
          schema.pattern("^(?:" + pattern.regexp() + ")$");
        }
      }
      return schema;
    };
  }

  @SuppressWarnings("rawtypes")
  private static ObjectSchema problemSchema() {
    ObjectSchema problem = new ObjectSchema();
    problem
        .description(
            "An RFC 9457 problem. Switch on the slug at the end of `type`; it never changes"
                + " meaning. `detail` is for people and may change.")
        .addProperty(
            "type",
            new StringSchema()
                .format("uri")
                .description("The problem's type: the shop's problem base followed by a slug.")
                .example("https://once.dev/problems/validation-failed"))
        .addProperty(
            "title",
            new StringSchema()
                .description("A short summary, fixed for each type.")
                .example("Validation failed"))
        .addProperty(
            "status",
            new IntegerSchema()
                .format("int32")
                .minimum(java.math.BigDecimal.valueOf(400))
                .maximum(java.math.BigDecimal.valueOf(599))
                .description("The HTTP status of the answer.")
                .example(422))
        .addProperty(
            "detail",
            new StringSchema()
                .description("What went wrong with this request, in one sentence.")
                .example("Field 'amount' must be a decimal string with at most 4 fraction digits."))
        .addProperty(
            "instance",
            new StringSchema()
                .format("uri-reference")
                .description(
                    "RFC 9457's reference to this occurrence; the shop does not send it, the"
                        + " request's path says the same."))
        .addProperty(
            "field",
            new StringSchema()
                .description(
                    "The request member or query parameter at fault, when there is one: a JSON"
                        + " path such as `items[2].quantity`.")
                .example("amount"));
    problem.required(List.of("type", "title", "status", "detail"));
    return problem;
  }

  private static HeaderParameter idempotencyKey() {
    HeaderParameter header = new HeaderParameter();
    header
        .name(IDEMPOTENCY_KEY)
        .required(true)
        .description(
            "Makes the request safe to retry: 1-255 visible ASCII characters (0x21-0x7E), or an"
                + " RFC 8941 string holding them (`\"abc\"` is the key `abc`); one key per"
                + " intended effect, for example a UUID. Keys are scoped to the client. A retry"
                + " with the same key and the same request gets the first answer again, with"
                + " `Idempotent-Replayed: true`; the same key with another method, path or body"
                + " gets 422 `idempotency-key-reused`; a retry while the first is still running"
                + " gets 409 `idempotency-key-in-use` with `Retry-After`. Protocol: "
                + PROTOCOL
                + " (Once's contract: docs/idempotency.md in the repository).")
        .schema(new StringSchema().pattern(KEY_PATTERN).example("7b0f2d5e-order-42"));
    return header;
  }

  private static Header replayedHeader() {
    return new Header()
        .description(
            "`true` when this answer is a replay of the answer stored for this"
                + " `Idempotency-Key`; absent on the first answer.")
        .schema(new StringSchema()._enum(List.of("true")));
  }

  /** On a 409: sent with {@code idempotency-key-in-use}, not with the shop's own conflicts. */
  private static Header retryAfterHeader() {
    return new Header()
        .description(
            "Seconds to wait before sending the request again: sent with"
                + " `idempotency-key-in-use`.")
        .schema(retryAfterSchema());
  }

  /** Delay-seconds, as the shop and Once's filter send them. */
  static StringSchema retryAfterSchema() {
    return (StringSchema) new StringSchema().pattern("^[0-9]{1,9}$").example("1");
  }
}
