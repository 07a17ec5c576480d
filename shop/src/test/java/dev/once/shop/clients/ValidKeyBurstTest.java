package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import dev.once.shop.persistence.Ids;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.support.ShopResponse;
import dev.once.shop.support.SmallPoolShopTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * A valid client's first burst on an instance that has not seen its key yet (after a restart, a
 * deploy, or on a new instance) is served whole: no 503. The key is created as another instance
 * creates it (in the database only), so it is unfamiliar here; 64 requests with it are sent at
 * once, and its lookup is held in the "database" until every other request of the burst is either
 * answered or waiting for that lookup. The pool has {@value SmallPoolShopTest#POOL_SIZE}
 * connections, so lookups of unfamiliar keys have a single permit.
 */
class ValidKeyBurstTest extends SmallPoolShopTest {
  private static final int BURST = 64;
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final ExecutorService THREADS = Executors.newCachedThreadPool();

  @MockitoSpyBean ClientRepository repository;

  @Autowired ApiKeyAuthenticator authenticator;

  @AfterAll
  static void stopThreads() {
    THREADS.shutdownNow();
  }

  @Test
  void sixtyFourConcurrentRequestsOfAKeyThisInstanceHasNotSeenAreAllServed() throws Exception {
    String apiKey = ApiKeys.generate();
    byte[] hash = ApiKeys.hash(apiKey);
    repository.insert(Ids.next(Ids.CLIENT), "burst", hash, Timestamps.now(clock));
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger lookups = new AtomicInteger();
    doAnswer(
            lookup -> {
              if (Arrays.equals((byte[]) lookup.getArgument(0), hash)) {
                lookups.incrementAndGet();
                if (!release.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                  throw new IllegalStateException("the test never released the lookup");
                }
              }
              return lookup.callRealMethod();
            })
        .when(repository)
        .activeClientByKeyHash(any());

    List<CompletableFuture<ShopResponse>> burst = new ArrayList<>();
    for (int i = 0; i < BURST; i++) {
      burst.add(
          CompletableFuture.supplyAsync(() -> http.get("/v1/accounts/acc_none", apiKey), THREADS));
    }
    // One request looks the key up (held above); every other one is answered or waits for it.
    await("the burst answered or waiting for the key's lookup")
        .atMost(LIMIT)
        .until(
            () ->
                lookups.get() >= 1
                    && authenticator.following()
                            + burst.stream().filter(CompletableFuture::isDone).count()
                        >= BURST - lookups.get());
    release.countDown();

    for (CompletableFuture<ShopResponse> answer : burst) {
      ShopResponse response = answer.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
      // Authenticated: the account is not the client's (it does not exist), so 404, never 503.
      response.assertProblem(404, "account-not-found");
    }
    assertThat(lookups).hasValue(1);
  }
}
