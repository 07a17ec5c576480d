package dev.once.shop.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.embedded.EmbeddedPostgresServer;
import dev.once.shop.ShopApplication;
import dev.once.shop.support.ShopHttp;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.TestClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The database dies under load: its postmaster is killed with {@code kill -9} while concurrent
 * clients call every endpoint, and every answer is either what the endpoint gives with a database
 * (a success, or the 401 of an unknown key) or 503 {@code service-unavailable} with {@code
 * Retry-After} — never a 500, whichever place the failure meets (authentication, Once's filter, the
 * handler, its commit, the admin API). Its own embedded server and Spring context, closed after the
 * class, so that no other test meets the dead server. Whether the server comes back by itself while
 * the clients still send does not matter: an answer after a restart is a success.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "once.embedded-postgres.clean=true",
      "once.embedded-postgres.data-dir=" + DatabaseKillIT.DATA_DIR,
      "shop.admin-token=" + DatabaseKillIT.ADMIN_TOKEN,
      "spring.datasource.hikari.connection-timeout=250",
      "once.idempotency.purge.enabled=false"
    })
@DirtiesContext
class DatabaseKillIT {
  static final String DATA_DIR = "target/embedded-pg-kill";
  static final String ADMIN_TOKEN = "kill-test-admin-token-0123456789abcdef";

  /** Client threads, each cycling through every endpoint. */
  private static final int THREADS = 8;

  /** Requests each thread sends before the kill may come. */
  private static final int BEFORE_KILL = 8;

  /** Requests each thread sends after it saw the outage. */
  private static final int AFTER_OUTAGE = 30;

  /** Bound on each thread's requests after the kill, should no outage ever be seen. */
  private static final int AT_MOST_AFTER_KILL = 2_000;

  private static final SecureRandom RANDOM = new SecureRandom();

  @LocalServerPort private int port;
  @Autowired private JdbcClient jdbc;

  /** One call of one endpoint, and what it answers when the database is there. */
  private record Endpoint(String name, Function<Integer, ShopResponse> call, List<Integer> fine) {}

  /** When a request ran: before the kill, across it (sent before, answered after), after it. */
  private enum Phase {
    BEFORE,
    ACROSS,
    AFTER
  }

  /** One answer, with the endpoint and when its request ran. */
  private record Answer(String endpoint, Phase phase, ShopResponse response) {}

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyAnswerIsASuccessOrA503WithRetryAfterWhenThePostmasterIsKilled() throws Exception {
    ShopHttp http = new ShopHttp(port, ADMIN_TOKEN);
    TestClient client = TestClient.create(http);
    String account = client.openAccountWith("EUR", "1000000");
    String payment = client.pay(account, "500000", "EUR").text("id");
    // The provider's success, so that refunds are allowed.
    jdbc.sql("UPDATE payment SET status = 'succeeded' WHERE id = :id")
        .param("id", payment)
        .update();
    String pay = "{\"accountId\":\"" + account + "\",\"amount\":\"0.01\",\"currency\":\"EUR\"}";
    List<Endpoint> endpoints =
        List.of(
            new Endpoint(
                "POST /v1/accounts",
                i -> client.post("/v1/accounts", "{\"currency\":\"EUR\"}"),
                List.of(201)),
            new Endpoint(
                "POST deposits",
                i -> client.post("/v1/accounts/" + account + "/deposits", "{\"amount\":\"0.01\"}"),
                List.of(201)),
            new Endpoint("GET account", i -> client.get("/v1/accounts/" + account), List.of(200)),
            new Endpoint(
                "GET operations",
                i -> client.get("/v1/accounts/" + account + "/operations"),
                List.of(200)),
            new Endpoint("POST /v1/payments", i -> client.post("/v1/payments", pay), List.of(201)),
            new Endpoint(
                "POST refunds",
                i -> client.post("/v1/payments/" + payment + "/refunds", "{\"amount\":\"0.01\"}"),
                List.of(201)),
            new Endpoint("GET payment", i -> client.get("/v1/payments/" + payment), List.of(200)),
            new Endpoint(
                "POST /admin/v1/clients",
                i -> http.admin("/admin/v1/clients", "{\"name\":\"kill test " + i + "\"}"),
                List.of(201)),
            // A key never seen: authentication must look it up in the database.
            new Endpoint(
                "GET with an unknown key",
                i -> http.get("/v1/accounts/" + account, unknownKey()),
                List.of(401)));

    ProcessHandle postmaster =
        ProcessHandle.of(
                EmbeddedPostgresServer.find(Path.of(DATA_DIR))
                    .orElseThrow()
                    .postmaster()
                    .orElseThrow()
                    .pid())
            .orElseThrow();
    AtomicBoolean killed = new AtomicBoolean();
    AtomicBoolean outageSeen = new AtomicBoolean();
    List<Answer> answers = new CopyOnWriteArrayList<>();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    CountDownLatch warmedUp = new CountDownLatch(THREADS);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        workers.add(
            threads.submit(
                () -> {
                  start.await();
                  int n = thread; // threads start on different endpoints
                  for (int i = 0; i < BEFORE_KILL; i++, n++) {
                    answers.add(call(endpoints.get(n % endpoints.size()), n, killed));
                  }
                  warmedUp.countDown();
                  // No pause: the kill meets requests in flight at every step of their way.
                  int afterOutage = 0;
                  for (int i = 0; i < AT_MOST_AFTER_KILL && afterOutage < AFTER_OUTAGE; i++, n++) {
                    Answer answer = call(endpoints.get(n % endpoints.size()), n, killed);
                    answers.add(answer);
                    if (answer.phase() != Phase.BEFORE && answer.response().status() == 503) {
                      outageSeen.set(true);
                    }
                    if (outageSeen.get()) {
                      afterOutage++;
                    }
                  }
                  return null;
                }));
      }
      warmedUp.await();
      killed.set(true);
      postmaster.destroyForcibly(); // SIGKILL; its backends notice and end
      for (Future<?> worker : workers) {
        worker.get();
      }
    } finally {
      threads.shutdownNow();
    }

    Map<String, Integer> counts = new TreeMap<>();
    for (Answer answer : answers) {
      String key = answer.phase().name().toLowerCase() + " kill " + answer.response().status();
      counts.merge(key, 1, Integer::sum);
    }
    System.out.println("DatabaseKillIT answers by status: " + counts);

    assertThat(outageSeen).as("the outage was seen by some request").isTrue();
    List<String> wrong = new ArrayList<>();
    for (Answer answer : answers) {
      ShopResponse response = answer.response();
      Endpoint endpoint =
          endpoints.stream().filter(e -> e.name().equals(answer.endpoint())).findFirst().get();
      if (endpoint.fine().contains(response.status())) {
        continue;
      }
      try {
        response.assertProblem(503, "service-unavailable");
        assertThat(response.header("Retry-After")).as("Retry-After").isPresent();
      } catch (AssertionError e) {
        wrong.add(answer.endpoint() + ": " + response.status() + " " + response.body());
      }
    }
    assertThat(Collections.unmodifiableList(wrong)).as("answers neither fine nor 503").isEmpty();
  }

  private static Answer call(Endpoint endpoint, int n, AtomicBoolean killed) {
    boolean killedBefore = killed.get();
    ShopResponse response = endpoint.call().apply(n);
    Phase phase = killedBefore ? Phase.AFTER : killed.get() ? Phase.ACROSS : Phase.BEFORE;
    return new Answer(endpoint.name(), phase, response);
  }

  /** A well-formed API key that no client has. */
  private static String unknownKey() {
    byte[] random = new byte[32];
    RANDOM.nextBytes(random);
    return "shop_sk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random);
  }
}
