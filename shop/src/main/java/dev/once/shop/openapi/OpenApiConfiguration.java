package dev.once.shop.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.security.SecurityScheme;
import jakarta.validation.constraints.Pattern;
import java.lang.annotation.Annotation;
import java.util.Objects;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description served at {@code /v3/api-docs} (UI at {@code /swagger-ui.html}): the two
 * bearer schemes, on every {@code /v1} POST the required {@code Idempotency-Key} header that Once's
 * filter enforces outside the controllers (so annotations on them could not show it), and the
 * request bodies from the same records and constraints that validate them.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {
  /** Security scheme of the {@code /v1} API: a client's API key. */
  public static final String API_KEY_SCHEME = "apiKey";

  /** Security scheme of the {@code /admin} API: the admin token. */
  public static final String ADMIN_SCHEME = "adminToken";

  private static final Annotation[] NONE = {};

  @Bean
  OpenAPI shopOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Once shop API")
                .version("v1")
                .description(
                    "Accounts with an append-only ledger and payments. Money amounts are JSON"
                        + " strings with at most 4 fraction digits; every error is an RFC 9457"
                        + " problem."))
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
                        .description("The admin token (SHOP_ADMIN_TOKEN).")));
  }

  @Bean
  OpenApiCustomizer idempotencyKeyHeader() {
    return openApi -> {
      if (openApi.getPaths() == null) {
        return;
      }
      openApi
          .getPaths()
          .forEach(
              (path, item) -> {
                if (path.startsWith("/v1/") && item.getPost() != null) {
                  item.getPost().addParametersItem(idempotencyKey());
                }
              });
    };
  }

  /**
   * Documents the constraints springdoc does not read itself: the limit of a {@link Text} field and
   * the pattern of a constraint composed with {@link Pattern} (the money formats).
   */
  @Bean
  PropertyCustomizer composedConstraints() {
    return (schema, type) -> {
      for (Annotation constraint : Objects.requireNonNullElse(type.getCtxAnnotations(), NONE)) {
        if (constraint instanceof Text text) {
          schema.maxLength(text.max());
        }
        Pattern pattern = constraint.annotationType().getAnnotation(Pattern.class);
        if (pattern != null) {
          schema.pattern(pattern.regexp());
        }
      }
      return schema;
    };
  }

  private static HeaderParameter idempotencyKey() {
    HeaderParameter header = new HeaderParameter();
    header
        .name("Idempotency-Key")
        .required(true)
        .description(
            "1-255 visible ASCII characters, unique per intended effect. A retry with the same"
                + " key and body gets the first answer again (Idempotent-Replayed: true); the same"
                + " key with another body gets 422 idempotency-key-reused; a retry while the first"
                + " is running gets 409 idempotency-key-in-use.")
        .schema(new StringSchema().minLength(1).maxLength(255).example("7b0f2d5e-order-42"));
    return header;
  }
}
