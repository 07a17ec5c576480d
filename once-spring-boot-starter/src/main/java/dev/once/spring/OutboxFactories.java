package dev.once.spring;

import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxAdmin;
import dev.once.outbox.OutboxStore;
import dev.once.postgres.PostgresStores;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Clock;
import javax.sql.DataSource;

/**
 * TEMPORARY, until branch {@code relay} is merged: the outbox factories of once-core that land with
 * the relay engine ({@code PostgresStores.outboxStore}, {@code Outbox.of}, {@code OutboxAdmin.of}),
 * called by name so that this branch compiles before they exist. After the merge, replace each body
 * with the direct call in its comment, make {@link #available()} return {@code true} (or drop it
 * and its fallback in {@code OnceAutoConfiguration.onceOutbox}), and delete the reflection.
 */
final class OutboxFactories {
  private OutboxFactories() {}

  /** Whether once-core has the relay's factories (branch {@code relay} merged). */
  static boolean available() {
    try {
      PostgresStores.class.getMethod("outboxStore", DataSource.class);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /** After the merge: {@code return PostgresStores.outboxStore(dataSource);} */
  static OutboxStore store(DataSource dataSource) {
    return (OutboxStore)
        call(PostgresStores.class, "outboxStore", new Class<?>[] {DataSource.class}, dataSource);
  }

  /** After the merge: {@code return Outbox.of(store, clock);} */
  static Outbox outbox(OutboxStore store, Clock clock) {
    return (Outbox)
        call(Outbox.class, "of", new Class<?>[] {OutboxStore.class, Clock.class}, store, clock);
  }

  /** After the merge: {@code return OutboxAdmin.of(store, clock);} */
  static OutboxAdmin admin(OutboxStore store, Clock clock) {
    return (OutboxAdmin)
        call(
            OutboxAdmin.class, "of", new Class<?>[] {OutboxStore.class, Clock.class}, store, clock);
  }

  private static Object call(Class<?> owner, String name, Class<?>[] types, Object... args) {
    try {
      Method factory = owner.getMethod(name, types);
      return factory.invoke(null, args);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw new IllegalStateException(
          owner.getSimpleName()
              + "."
              + name
              + " is missing: this build of once-core has no outbox relay yet",
          e);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
