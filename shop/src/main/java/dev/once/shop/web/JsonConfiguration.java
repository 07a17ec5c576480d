package dev.once.shop.web;

import dev.once.spring.OnceProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The shop's one {@link JsonMapper}: Boot's, reading strictly ({@link #strictReading}) within the
 * limits of Once's filter ({@link #limits}), so that a request body the filter fingerprinted is
 * read by the same rules, and a body that bypasses the filter (the admin API) meets the same
 * limits.
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

  /**
   * Refuses what a lenient reader would guess at: a duplicate member name, a member the target does
   * not have, anything after the value, a JSON number or boolean where a string belongs (so {@code
   * "amount": 10} is refused, never read as {@code "10"}), and a string, a fraction or a boolean
   * where an integer belongs (so {@code "quantity": 1.5} is refused, never cut to 1).
   */
  @Bean
  JsonMapperBuilderCustomizer strictReading() {
    return builder ->
        builder
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(
                DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .withCoercionConfig(
                LogicalType.Textual,
                strings ->
                    strings
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .withCoercionConfig(
                LogicalType.Integer,
                integers ->
                    integers
                        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
  }

  /**
   * Boot's builder (every {@link JsonMapperBuilderCustomizer} applied, in order) on a factory with
   * {@link #limits}: Boot 4.0 makes the factory before customizers run, so they cannot set them.
   */
  @Bean
  @Scope("prototype")
  JsonMapper.Builder jsonMapperBuilder(
      OnceProperties once, ObjectProvider<JsonMapperBuilderCustomizer> customizers) {
    JsonMapper.Builder builder = JsonMapper.builder(limits(once));
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return builder;
  }

  /**
   * The filter's limits: {@code once.idempotency.http.max-json-depth} levels and {@code
   * max-body-size} bytes, within which every name, number and string may be as long as the body.
   */
  static JsonFactory limits(OnceProperties once) {
    int maxBytes = (int) once.idempotency().http().maxBodySize().toBytes(); // <= 2 GB
    return JsonFactory.builder()
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxNestingDepth(once.idempotency().http().maxJsonDepth())
                .maxDocumentLength(maxBytes)
                .maxNameLength(maxBytes)
                .maxNumberLength(maxBytes)
                .maxStringLength(maxBytes)
                .build())
        // The symbol table's guard against hash collisions could refuse names the filter accepts.
        .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .build();
  }
}
