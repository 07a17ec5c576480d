package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spring Boot's metadata (what an IDE shows) records the defaults of the endpoint selection. */
class ConfigurationMetadataTest {

  @Test
  void theMetadataRecordsThatNoPathNeedsAKeyByDefault() throws Exception {
    String json;
    try (InputStream in =
        OnceProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("META-INF/spring-configuration-metadata.json").isNotNull();
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Map<String, Object>> paths =
        JsonPath.read(json, "$.properties[?(@.name == 'once.idempotency.http.paths')]");
    List<Map<String, Object>> methods =
        JsonPath.read(json, "$.properties[?(@.name == 'once.idempotency.http.methods')]");

    assertThat(paths)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.get("defaultValue"))
                  .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                  .isEmpty();
              assertThat(p.get("description")).asString().contains("@Idempotent");
            });
    assertThat(methods)
        .singleElement()
        .satisfies(
            m ->
                assertThat(m.get("defaultValue"))
                    .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                    .containsExactly("POST"));
  }

  /** An IDE flags the property that typed events made unnecessary, and says why. */
  @Test
  void theMetadataMarksTheEventsPropertyDeprecated() throws Exception {
    String json;
    try (InputStream in =
        OnceProperties.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Map<String, Object>> events =
        JsonPath.read(json, "$.properties[?(@.name == 'once.outbox.events')]");

    assertThat(events)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.get("deprecated")).isEqualTo(true);
              assertThat(e.get("deprecation")).asString().contains("@OnceEvent");
            });
  }
}
