package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.embedded.spring.EmbeddedPostgresSupervisor;
import dev.once.shop.ShopApplication;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.TestClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The whole shop on an embedded PostgreSQL of its own (its own data folder and Spring context, so
 * the JVM's shared server is not disturbed): its postmaster is killed with {@code kill -9}, twice;
 * each time readiness goes down, the shop restarts the server by itself, and every committed
 * deposit is still there.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.embedded-postgres.clean=true",
      "once.embedded-postgres.data-dir=" + EmbeddedPostgresRestartIT.DATA_DIR,
      "shop.admin-token=" + EmbeddedPostgresRestartIT.ADMIN_TOKEN
    })
@Import(EmbeddedPostgresRestartIT.Readiness.class)
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbeddedPostgresRestartIT {

  static final String DATA_DIR = "target/restarted-pg";
  static final String ADMIN_TOKEN = "restart-admin-token-0123456789abcdef";

  @LocalServerPort private int port;
  @Autowired private ConfigurableApplicationContext context;
  @Autowired private Readiness readiness;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void killedPostmasterIsRestartedWithEveryCommittedDeposit() throws IOException {
    ShopHttp http = new ShopHttp(port, ADMIN_TOKEN);
    TestClient client = TestClient.create(http);
    String account = client.openAccountWith("EUR", "100");
    for (String balance : List.of("100.0000", "110.0000")) {
      EmbeddedPostgresServer server = EmbeddedPostgresServer.find(Path.of(DATA_DIR)).orElseThrow();
      long killed = server.postmaster().orElseThrow().pid();
      readiness.states.clear();

      ProcessHandle.of(killed).orElseThrow().destroyForcibly(); // kill -9

      await("readiness refusing traffic")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> readiness.states.contains(ReadinessState.REFUSING_TRAFFIC));
      await("the shop answering again")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                assertThat(http.send(http.request("/actuator/health/readiness")).status())
                    .isEqualTo(200);
                assertThat(client.balance(account)).isEqualTo(balance);
              });
      assertThat(readiness.states)
          .containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
      assertThat(server.postmaster().orElseThrow().pid()).isNotEqualTo(killed);
      assertThat(server.port()).isEqualTo(port(server));
      client.deposit(account, "10");
    }
    assertThat(client.balance(account)).isEqualTo("120.0000");
  }

  /** The port in the pid file (line 4): the restarted server listens where Hikari's URL points. */
  private static int port(EmbeddedPostgresServer server) throws IOException {
    Path pidFile = server.dataDirectory().resolve("postmaster.pid");
    return Integer.parseInt(Files.readAllLines(pidFile).get(3).strip());
  }

  /** Stops supervising first, so that stopping the server is no crash to restart from. */
  @AfterAll
  void stopServer() {
    context.getBean(EmbeddedPostgresSupervisor.class).stop();
    EmbeddedPostgresServer.find(Path.of(DATA_DIR)).ifPresent(EmbeddedPostgresServer::stop);
  }

  /** Every readiness change of the shop, in order. */
  static class Readiness {
    final List<ReadinessState> states = new CopyOnWriteArrayList<>();

    @EventListener
    void on(AvailabilityChangeEvent<ReadinessState> event) {
      states.add(event.getState());
    }
  }
}
