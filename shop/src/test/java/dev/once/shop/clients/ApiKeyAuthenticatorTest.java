package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.once.test.fixtures.SettableClock;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The authenticator's bounds, with a lookup in memory: how many unfamiliar lookups run at once, how
 * many wait for them and for how long, that requests of one key share one lookup, what is refused
 * without a lookup and for how long, and that neither bound delays a working key or lets a disabled
 * one through. Lookups wait on latches the test opens; every wait is bounded.
 */
class ApiKeyAuthenticatorTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-06-01T12:00:00Z"));

  /** The database: active clients by key hash. */
  private final Map<ByteBuffer, String> active = new ConcurrentHashMap<>();

  private final AtomicInteger lookups = new AtomicInteger();

  /** Lookups running now, and the most that ran at once when one of an unknown key started. */
  private final AtomicInteger lookingUp = new AtomicInteger();

  private final AtomicInteger mostAtOnce = new AtomicInteger();

  /** Lookups wait here until the test lets them go. */
  private volatile CountDownLatch gate = new CountDownLatch(0);

  /** Two permits, waited for as long as a test may take. */
  private final ApiKeyAuthenticator authenticator = authenticator(2, LIMIT);

  private ApiKeyAuthenticator authenticator(int permits, Duration permitWait) {
    return new ApiKeyAuthenticator(
        hash -> {
          lookups.incrementAndGet();
          int atOnce = lookingUp.incrementAndGet();
          if (!active.containsKey(ByteBuffer.wrap(hash))) {
            // The flood's lookups: those that need permits.
            mostAtOnce.accumulateAndGet(atOnce, Math::max);
          }
          try {
            if (!gate.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
              throw new IllegalStateException("the test never opened the gate");
            }
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          } finally {
            lookingUp.decrementAndGet();
          }
          return Optional.ofNullable(active.get(ByteBuffer.wrap(hash)));
        },
        permits,
        permitWait,
        clock);
  }

  private static final Duration LIMIT = Duration.ofSeconds(60);

  /** Runs {@code task} on a thread of its own. */
  private static CompletableFuture<ApiKeyAuthenticator.Outcome> start(
      Supplier<ApiKeyAuthenticator.Outcome> task) {
    CompletableFuture<ApiKeyAuthenticator.Outcome> outcome = new CompletableFuture<>();
    Thread thread = new Thread(() -> outcome.complete(task.get()));
    thread.setDaemon(true);
    thread.start();
    return outcome;
  }

  private static ApiKeyAuthenticator.Outcome outcome(
      CompletableFuture<ApiKeyAuthenticator.Outcome> outcome) throws Exception {
    return outcome.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
  }

  private String activeKey(String clientId) {
    String key = ApiKeys.generate();
    active.put(ByteBuffer.wrap(ApiKeys.hash(key)), clientId);
    return key;
  }

  @Test
  void aFifthOfThePoolIsAtLeastOneConnection() {
    assertThat(ApiKeyAuthenticator.unfamiliarLookupsFor(20)).isEqualTo(4);
    assertThat(ApiKeyAuthenticator.unfamiliarLookupsFor(5)).isEqualTo(1);
    assertThat(ApiKeyAuthenticator.unfamiliarLookupsFor(2)).isEqualTo(1);
  }

  @Test
  void unfamiliarKeysGetNoMoreLookupsAtOnceThanThePermitsWaitForThemAndFamiliarOnesNeverWait()
      throws Exception {
    String familiar = activeKey("cli_familiar");
    assertThat(authenticator.authenticate(familiar))
        .isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_familiar"));
    gate = new CountDownLatch(1);
    int flood = 16;
    lookups.set(0);
    mostAtOnce.set(0);
    List<CompletableFuture<ApiKeyAuthenticator.Outcome>> outcomes = new ArrayList<>();
    for (int i = 0; i < flood; i++) {
      outcomes.add(start(() -> authenticator.authenticate(ApiKeys.generate())));
    }
    // Two look up (on the closed gate); the others wait for their permits, holding nothing.
    await().atMost(LIMIT).until(() -> authenticator.waitingForPermits() == flood - 2);
    assertThat(lookups).hasValue(2);

    // The database answers everyone else at once. A familiar key and a key created now need no
    // permit.
    CountDownLatch held = gate;
    gate = new CountDownLatch(0);
    assertThat(authenticator.authenticate(familiar))
        .isInstanceOf(ApiKeyAuthenticator.Authenticated.class);
    String created = activeKey("cli_new");
    authenticator.keyCreated(ApiKeys.hash(created));
    assertThat(authenticator.authenticate(created))
        .isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_new"));

    held.countDown();
    for (CompletableFuture<ApiKeyAuthenticator.Outcome> outcome : outcomes) {
      assertThat(outcome(outcome)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    }
    assertThat(lookups)
        .as("the flood's, the familiar key's and the created key's")
        .hasValue(flood + 2);
    assertThat(mostAtOnce).as("lookups at once").hasValue(2);
  }

  @Test
  void requestsOfOneUnfamiliarKeyShareOneLookup() throws Exception {
    String key = activeKey("cli_burst");
    gate = new CountDownLatch(1);
    int burst = 64;
    List<CompletableFuture<ApiKeyAuthenticator.Outcome>> outcomes = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      outcomes.add(start(() -> authenticator.authenticate(key)));
    }
    await().atMost(LIMIT).until(() -> authenticator.following() == burst - 1);
    gate.countDown();

    for (CompletableFuture<ApiKeyAuthenticator.Outcome> outcome : outcomes) {
      assertThat(outcome(outcome)).isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_burst"));
    }
    assertThat(lookups).hasValue(1);
  }

  @Test
  void aLookupWithoutAPermitInTimeOrRoomToWaitIsBusy() throws Exception {
    ApiKeyAuthenticator noWait = authenticator(1, Duration.ZERO);
    ApiKeyAuthenticator waits = authenticator(1, LIMIT);
    gate = new CountDownLatch(1);
    CompletableFuture<ApiKeyAuthenticator.Outcome> holder =
        start(() -> noWait.authenticate(ApiKeys.generate()));
    await().atMost(LIMIT).until(() -> lookingUp.get() == 1);
    assertThat(noWait.authenticate(ApiKeys.generate()))
        .isInstanceOf(ApiKeyAuthenticator.Busy.class);

    CompletableFuture<ApiKeyAuthenticator.Outcome> otherHolder =
        start(() -> waits.authenticate(ApiKeys.generate()));
    await().atMost(LIMIT).until(() -> lookingUp.get() == 2);
    int room = LookupPermits.WAITERS_PER_PERMIT;
    List<CompletableFuture<ApiKeyAuthenticator.Outcome>> waiting = new ArrayList<>();
    for (int i = 0; i < room; i++) {
      waiting.add(start(() -> waits.authenticate(ApiKeys.generate())));
    }
    await().atMost(LIMIT).until(() -> waits.waitingForPermits() == room);
    assertThat(waits.authenticate(ApiKeys.generate()))
        .as("the waiting room is full")
        .isInstanceOf(ApiKeyAuthenticator.Busy.class);

    gate.countDown();
    assertThat(outcome(holder)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    assertThat(outcome(otherHolder)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    for (CompletableFuture<ApiKeyAuthenticator.Outcome> outcome : waiting) {
      assertThat(outcome(outcome)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    }
  }

  @Test
  void aStringNotShapedLikeAKeyCostsNoLookup() {
    String wellFormed = ApiKeys.generate();
    for (String malformed :
        List.of(
            "shop_sk_unknown",
            wellFormed.substring(0, wellFormed.length() - 1),
            wellFormed + "A",
            wellFormed.replace("shop_sk_", "shop_pk_"),
            "anything-else")) {
      assertThat(authenticator.authenticate(malformed))
          .isInstanceOf(ApiKeyAuthenticator.Refused.class);
    }
    assertThat(lookups).hasValue(0);
  }

  @Test
  void aRefusedKeyIsRefusedWithoutALookupUntilItsTimeIsOver() {
    String unknown = ApiKeys.generate();
    for (int i = 0; i < 10; i++) {
      assertThat(authenticator.authenticate(unknown))
          .isInstanceOf(ApiKeyAuthenticator.Refused.class);
    }
    assertThat(lookups).hasValue(1);

    clock.advance(ApiKeyAuthenticator.REFUSED_FOR);
    authenticator.authenticate(unknown);
    assertThat(lookups).hasValue(2);
  }

  @Test
  void aDisabledClientIsRefusedOnItsNextRequestAndThenWithoutALookup() {
    String key = activeKey("cli_soon_disabled");
    assertThat(authenticator.authenticate(key))
        .isInstanceOf(ApiKeyAuthenticator.Authenticated.class);

    active.remove(ByteBuffer.wrap(ApiKeys.hash(key)));

    assertThat(authenticator.authenticate(key)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    int after = lookups.get();
    assertThat(authenticator.authenticate(key)).isInstanceOf(ApiKeyAuthenticator.Refused.class);
    assertThat(lookups).hasValue(after);
  }

  /** Creation forgets a refusal of the same hash, however it came about. */
  @Test
  void aCreatedKeyIsNeverRefusedFromBefore() {
    String key = ApiKeys.generate();
    assertThat(authenticator.authenticate(key)).isInstanceOf(ApiKeyAuthenticator.Refused.class);

    active.put(ByteBuffer.wrap(ApiKeys.hash(key)), "cli_created");
    authenticator.keyCreated(ApiKeys.hash(key));

    assertThat(authenticator.authenticate(key))
        .isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_created"));
  }

  @Test
  void rememberedHashesAreBounded() {
    RecentKeyHashes hashes = new RecentKeyHashes(3, Duration.ofMinutes(1), clock);
    byte[][] added = new byte[4][];
    for (int i = 0; i < 4; i++) {
      added[i] = ApiKeys.hash("key-" + i);
      hashes.add(added[i]);
    }
    assertThat(hashes.contains(added[0])).as("least recently used, dropped").isFalse();
    assertThat(hashes.contains(added[3])).isTrue();
    clock.advance(Duration.ofMinutes(1));
    assertThat(hashes.contains(added[3])).as("expired").isFalse();
  }
}
