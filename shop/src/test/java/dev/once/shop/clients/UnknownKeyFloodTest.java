package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.SmallPoolShopTest;
import dev.once.shop.support.TestClient;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * A flood of requests with random API keys, each of which the shop must look up to refuse, cannot
 * take the connections that real clients need: lookups of keys this process has not seen succeed
 * share a fraction of the pool, and a key refused once is refused again without a lookup. Keys of
 * clients that authenticated before, and keys just created, never queue behind the flood; a
 * disabled client is refused at once all the same.
 *
 * <p>To make the flood's lookups hold their connections for as long as the test wants, as a slow
 * database would, the repository is spied on: a lookup of a flood key first waits, on a pooled
 * connection, for an advisory lock that the test holds.
 */
class UnknownKeyFloodTest extends SmallPoolShopTest {
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();
  private static final long FLOOD_LOCK = 4_242_424L;
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @MockitoSpyBean ClientRepository repository;

  @Autowired ApiKeyAuthenticator authenticator;

  @Value("${spring.datasource.url}")
  String url;

  @Value("${spring.datasource.username}")
  String user;

  @Value("${spring.datasource.password}")
  String password;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void aFloodOfUnknownKeysCannotStarveRealClients() throws Exception {
    TestClient client = TestClient.create(http);
    String account = client.openAccount("EUR");
    int floodSize = 12;
    List<String> floodKeys = new ArrayList<>();
    Set<ByteBuffer> floodHashes = new HashSet<>();
    for (int i = 0; i < floodSize; i++) {
      String key = ApiKeys.generate();
      floodKeys.add(key);
      floodHashes.add(ByteBuffer.wrap(ApiKeys.hash(key)));
    }
    AtomicInteger floodLookups = new AtomicInteger();
    doAnswer(
            lookup -> {
              if (floodHashes.contains(ByteBuffer.wrap((byte[]) lookup.getArgument(0)))) {
                floodLookups.incrementAndGet();
                // Holds a pooled connection until the test lets go of the lock.
                jdbc.sql("SELECT pg_advisory_xact_lock_shared(?)")
                    .param(FLOOD_LOCK)
                    .query()
                    .listOfRows();
              }
              return lookup.callRealMethod();
            })
        .when(repository)
        .activeClientByKeyHash(any());

    List<CompletableFuture<ShopResponse>> flood = new ArrayList<>();
    try (Connection holder = DriverManager.getConnection(url, user, password);
        Connection monitor = DriverManager.getConnection(url, user, password)) {
      try (Statement lock = holder.createStatement()) {
        lock.execute("SELECT pg_advisory_lock(" + FLOOD_LOCK + ")");
      }
      for (String key : floodKeys) {
        flood.add(
            CompletableFuture.supplyAsync(() -> http.get("/v1/accounts/" + account, key), THREADS));
      }
      // Every flood request has either been answered already or waits in the database.
      int waiting = awaitSettled(flood, monitor);

      assertThat(waiting)
          .as("flood lookups holding a connection, of a pool of %s", POOL_SIZE)
          .isLessThan(POOL_SIZE)
          .isEqualTo(floodLookups.get())
          .isEqualTo(authenticator.unfamiliarLookups());
      // The real client, and a client created during the flood, are served meanwhile.
      assertThat(client.get("/v1/accounts/" + account).assertStatus(200).text("id"))
          .isEqualTo(account);
      client.deposit(account, "5.00");
      TestClient newcomer = TestClient.create(http);
      newcomer.openAccount("EUR");

      try (Statement unlock = holder.createStatement()) {
        unlock.execute("SELECT pg_advisory_unlock(" + FLOOD_LOCK + ")");
      }
    }
    for (CompletableFuture<ShopResponse> answer : flood) {
      ShopResponse refused = answer.get();
      assertThat(refused.status()).as(refused.body()).isIn(401, 503);
      refused.assertProblem(
          refused.status(), refused.status() == 401 ? "unauthorized" : "service-unavailable");
      if (refused.status() == 503) {
        assertThat(refused.header("Retry-After")).hasValue("1");
      }
    }
  }

  @Test
  void aRepeatedUnknownKeyIsLookedUpOnce() {
    String unknown = ApiKeys.generate();
    byte[] hash = ApiKeys.hash(unknown);

    for (int i = 0; i < 20; i++) {
      http.get("/v1/accounts/acc_any", unknown).assertProblem(401, "unauthorized");
    }

    verify(repository, times(1)).activeClientByKeyHash(argThat(h -> equal(h, hash)));
  }

  @Test
  void aDisabledClientIsRefusedFromItsNextRequestOn() {
    TestClient client = TestClient.create(http);
    String account = client.openAccount("EUR");
    client.get("/v1/accounts/" + account).assertStatus(200);

    http.admin("/admin/v1/clients/" + client.id() + "/disable", "").assertStatus(200);

    client.get("/v1/accounts/" + account).assertProblem(401, "unauthorized");
    client.get("/v1/accounts/" + account).assertProblem(401, "unauthorized");
  }

  /**
   * Waits until every flood request is either answered or waiting for the lock in the database, and
   * returns how many wait.
   */
  private static int awaitSettled(List<CompletableFuture<ShopResponse>> flood, Connection monitor) {
    AtomicInteger waiting = new AtomicInteger();
    await("every flood request answered or waiting for the lock")
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              waiting.set(waitingForTheFloodLock(monitor));
              long answered = flood.stream().filter(CompletableFuture::isDone).count();
              return waiting.get() + answered == flood.size();
            });
    return waiting.get();
  }

  private static int waitingForTheFloodLock(Connection monitor) throws SQLException {
    try (Statement s = monitor.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    + " AND query LIKE '%pg_advisory_xact_lock_shared%'"
                    + " AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static boolean equal(byte[] a, byte[] b) {
    return a != null && Arrays.equals(a, b);
  }
}
