package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.inbox.BatchInboxConsumer;
import dev.once.postgres.OnceSchema;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ReflectionUtils;

/** The starter's static runtime hints, as {@code META-INF/spring/aot.factories} registers them. */
class OnceRuntimeHintsTest {
  private final RuntimeHints hints = new RuntimeHints();

  OnceRuntimeHintsTest() {
    SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
        .load(RuntimeHintsRegistrar.class)
        .forEach(registrar -> registrar.registerHints(hints, getClass().getClassLoader()));
  }

  @Test
  void everySchemaScriptIsAResource() {
    for (String script : OnceSchema.SCRIPTS) {
      assertThat(
              RuntimeHintsPredicates.resource()
                  .forResource("dev/once/postgres/migration/" + script))
          .as(script)
          .accepts(hints);
    }
    assertThat(
            RuntimeHintsPredicates.resource()
                .forResource("dev/once/postgres/migration/afterMigrate.sql"))
        .accepts(hints);
  }

  @Test
  void theTracingMayLookUpConsumeAll() {
    assertThat(
            RuntimeHintsPredicates.reflection()
                .onMethod(
                    ReflectionUtils.findMethod(
                        BatchInboxConsumer.class, "consumeAll", Connection.class, List.class)))
        .accepts(hints);
  }
}
