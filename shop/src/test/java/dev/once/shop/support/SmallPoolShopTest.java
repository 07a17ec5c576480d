package dev.once.shop.support;

import dev.once.spring.OnceProperties;
import dev.once.spring.web.ClientCaps;
import dev.once.test.fixtures.SettableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * Base of the tests that need the shop as a fresh checkout runs it, with a pool small enough to
 * exhaust: no admin token is configured (the shop generates one into {@link #ADMIN_TOKEN_FILE},
 * which {@link #http} reads), the pool has {@value #POOL_SIZE} connections and Hikari's shortest
 * connection-timeout (250 ms), the clock is a {@link SettableClock} that tests move by hand, and
 * the background purge is off so that nothing but the test's requests takes connections. One Spring
 * context shared by all subclasses; the embedded PostgreSQL is the JVM's one, shared with {@link
 * ShopIntegrationTest}.
 */
@ShopOnEmbeddedPostgres
@TestPropertySource(
    properties = {
      "spring.datasource.hikari.maximum-pool-size=" + SmallPoolShopTest.POOL_SIZE,
      "spring.datasource.hikari.connection-timeout=250",
      "once.idempotency.purge.enabled=false"
    })
@Import(SmallPoolShopTest.PinnedClock.class)
public abstract class SmallPoolShopTest {
  /** Connections in the pool. */
  public static final int POOL_SIZE = 5;

  /**
   * Where the shop writes its generated admin token, in a folder that is wiped when this class is
   * loaded (before its context starts), so the shop creates the folder and the file.
   */
  public static final Path ADMIN_TOKEN_FILE =
      wiped(Path.of("target", "small-pool-shop")).resolve("private").resolve("admin-token");

  @LocalServerPort private int port;

  /** The shop's pool. */
  @Autowired protected DataSource dataSource;

  /** Direct access to the shop's database. */
  @Autowired protected JdbcClient jdbc;

  /** The shop's clock. */
  @Autowired protected SettableClock clock;

  /** The shop over HTTP, with the admin token from {@link #ADMIN_TOKEN_FILE}. */
  protected ShopHttp http;

  /** The port the shop listens on. */
  protected int port() {
    return port;
  }

  @DynamicPropertySource
  static void adminTokenFile(DynamicPropertyRegistry registry) {
    registry.add("shop.admin-token-file", ADMIN_TOKEN_FILE::toString);
  }

  @BeforeEach
  void connect() throws IOException {
    http = new ShopHttp(port, Files.readString(ADMIN_TOKEN_FILE).strip());
  }

  private static Path wiped(Path folder) {
    try {
      if (Files.exists(folder)) {
        try (Stream<Path> paths = Files.walk(folder)) {
          for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(path);
          }
        }
      }
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Takes precedence over the shop's system {@link Clock} wherever one is injected, and drives
   * Once's per-client caps (which otherwise read the system clock): their buckets refill only when
   * a test moves it.
   */
  @TestConfiguration(proxyBeanMethods = false)
  static class PinnedClock {
    @Bean
    @Primary
    SettableClock settableClock() {
      return new SettableClock(Instant.parse("2026-06-01T12:00:00Z"));
    }

    @Bean
    ClientCaps pinnedClientCaps(OnceProperties once, SettableClock clock) {
      OnceProperties.Limits limits = once.idempotency().limits();
      return new ClientCaps(
          limits.maxInFlightPerClient(),
          limits.newKeysPerMinute(),
          once.idempotency().retryAfter(),
          clock);
    }
  }
}
