package dev.once.spring;

import dev.once.idempotency.IdempotencyStore;
import dev.once.inbox.InboxStore;
import dev.once.outbox.OutboxStore;
import java.util.Set;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.core.Ordered;

/**
 * Once's tables are made before anything uses them, by Spring Boot's own ordering of database
 * initialization (registered in {@code META-INF/spring.factories}): {@link OnceSchemaMigration} is
 * a database initializer, as Boot's Flyway and SQL initialization are, and every bean that reads or
 * writes Once's tables (the stores of keys, the outbox and the inbox, and so everything built on
 * them) depends on the initializers, so Spring creates it after they ran. Nothing else is ordered
 * by hand.
 */
final class OnceSchemaInitialization {
  private OnceSchemaInitialization() {}

  /**
   * {@link OnceSchemaMigration} initializes the database, after the application's own initializers
   * (its Flyway): Once's migration reads the schema owner's login from the application's Flyway.
   */
  static final class Initializer extends AbstractBeansOfTypeDatabaseInitializerDetector {
    @Override
    protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
      return Set.of(OnceSchemaMigration.class);
    }

    @Override
    public int getOrder() {
      return Ordered.LOWEST_PRECEDENCE;
    }
  }

  /** The stores on Once's tables wait for the database's initializers. */
  static final class Stores extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {
    @Override
    protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
      return Set.of(IdempotencyStore.class, OutboxStore.class, InboxStore.class);
    }
  }
}
