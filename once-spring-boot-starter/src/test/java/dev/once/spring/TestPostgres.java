package dev.once.spring;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.test.context.DynamicPropertyRegistry;

/** One real embedded PostgreSQL per test JVM. */
public final class TestPostgres {
  private static final EmbeddedPostgres SERVER = start();

  private TestPostgres() {}

  private static EmbeddedPostgres start() {
    try {
      return EmbeddedPostgres.builder().setServerConfig("max_connections", "200").start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL", e);
    }
  }

  /** Points a Spring test context's DataSource at this server. */
  public static void register(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", TestPostgres::jdbcUrl);
    registry.add("spring.datasource.username", () -> "postgres");
    registry.add("spring.datasource.password", () -> "postgres");
  }

  public static String jdbcUrl() {
    return SERVER.getJdbcUrl("postgres", "postgres");
  }
}
