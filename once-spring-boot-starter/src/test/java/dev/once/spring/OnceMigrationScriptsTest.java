package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.postgres.OnceSchema;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Once's migration reads its scripts by name: the names must be every file of the location (a
 * script added without its name would never run), each readable, each a registered resource.
 */
class OnceMigrationScriptsTest {
  private final OnceMigrationScripts scripts =
      new OnceMigrationScripts(getClass().getClassLoader());

  @Test
  void theNamesAreEveryFileOfTheLocation() throws IOException {
    Resource[] files =
        new PathMatchingResourcePatternResolver()
            .getResources("classpath*:dev/once/postgres/migration/*");
    assertThat(scripts.names())
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(files).map(Resource::getFilename).filter(Objects::nonNull).toList());
  }

  @Test
  void flywayFindsTheVersionedScriptsAndTheCallback() {
    assertThat(scripts.getResources("V", new String[] {".sql"})).hasSize(OnceSchema.SCRIPTS.size());
    assertThat(scripts.getResources("afterMigrate", new String[] {".sql"}))
        .singleElement()
        .satisfies(callback -> assertThat(callback.read()).isNotNull());
    assertThat(scripts.getResource("V1__idempotency.sql")).isNotNull();
  }

  @Test
  void everyScriptIsARegisteredResource() {
    RuntimeHints hints = new RuntimeHints();
    new OnceRuntimeHints().registerHints(hints, getClass().getClassLoader());
    for (String name : scripts.names()) {
      assertThat(
              RuntimeHintsPredicates.resource().forResource("dev/once/postgres/migration/" + name))
          .as(name)
          .accepts(hints);
    }
  }
}
