package dev.once.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.spring.outbox.OutboxTestApplication;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Once's tables are made before the beans that use them by Spring Boot's ordering of database
 * initialization, not by hand: each store depends on Once's migration, and without the migration
 * (once.schema.migrate=false, the scripts applied by the team) the stores start all the same.
 */
@Timeout(60)
class SchemaInitializationTest {
  private static final List<String> STORES =
      List.of("onceIdempotencyStore", "onceOutboxStore", "onceInboxStore");

  @Test
  void everyStoreDependsOnOncesMigration() {
    OutboxTestApplication.runner()
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(OnceSchemaMigration.class);
              for (String store : STORES) {
                assertThat(context.getBeanFactory().getBeanDefinition(store).getDependsOn())
                    .as("what %s waits for", store)
                    .contains("onceSchemaMigration");
              }
            });
  }

  @Test
  void withoutTheMigrationTheStoresStartOnTheTablesThereAre() {
    OutboxTestApplication.runner()
        .withPropertyValues(
            "once.schema.migrate=false",
            // Nothing that reads the tables at start: this JVM's database may not have them yet.
            "once.outbox.relay.enabled=false",
            "once.idempotency.purge.enabled=false",
            "once.inbox.purge.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(OnceSchemaMigration.class);
              for (String store : STORES) {
                assertThat(context).hasBean(store);
              }
            });
  }
}
