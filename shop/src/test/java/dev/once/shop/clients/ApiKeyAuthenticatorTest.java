package dev.once.shop.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.once.shop.support.MutableClock;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The authenticator's bounds, with a lookup in memory: how many unfamiliar lookups run at once,
 * what is refused without a lookup and for how long, and that neither bound delays a working key or
 * lets a disabled one through.
 */
class ApiKeyAuthenticatorTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T12:00:00Z"));

  /** The database: active clients by key hash. */
  private final Map<ByteBuffer, String> active = new ConcurrentHashMap<>();

  private final AtomicInteger lookups = new AtomicInteger();

  /** Lookups wait here until the test lets them go. */
  private volatile CountDownLatch gate = new CountDownLatch(0);

  private final ApiKeyAuthenticator authenticator =
      new ApiKeyAuthenticator(
          hash -> {
            lookups.incrementAndGet();
            try {
              gate.await();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
            return Optional.ofNullable(active.get(ByteBuffer.wrap(hash)));
          },
          2,
          clock);

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
  void unfamiliarKeysGetNoMoreLookupsAtOnceThanThePermitsAndFamiliarOnesNeverWait()
      throws Exception {
    String familiar = activeKey("cli_familiar");
    assertThat(authenticator.authenticate(familiar))
        .isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_familiar"));
    gate = new CountDownLatch(1);
    int flood = 16;
    CountDownLatch answered = new CountDownLatch(flood - 2);
    Thread[] threads = new Thread[flood];
    ApiKeyAuthenticator.Outcome[] outcomes = new ApiKeyAuthenticator.Outcome[flood];
    lookups.set(0);
    for (int i = 0; i < flood; i++) {
      int n = i;
      threads[i] =
          new Thread(
              () -> {
                outcomes[n] = authenticator.authenticate(ApiKeys.generate());
                answered.countDown();
              });
      threads[i].start();
    }
    // All but the two with a permit are answered while those two wait in the "database".
    answered.await();
    assertThat(lookups).hasValue(2);
    assertThat(Arrays.asList(outcomes))
        .filteredOn(o -> o != null)
        .hasSize(flood - 2)
        .allMatch(o -> o instanceof ApiKeyAuthenticator.Busy);

    // The two permit holders stay on the closed gate, as slow lookups; the database answers
    // everyone else at once. A familiar key and a key created now need no permit.
    CountDownLatch held = gate;
    gate = new CountDownLatch(0);
    assertThat(authenticator.authenticate(familiar))
        .isInstanceOf(ApiKeyAuthenticator.Authenticated.class);
    String created = activeKey("cli_new");
    authenticator.keyCreated(ApiKeys.hash(created));
    assertThat(authenticator.authenticate(created))
        .isEqualTo(new ApiKeyAuthenticator.Authenticated("cli_new"));
    // A third unfamiliar key finds both permits still taken.
    assertThat(authenticator.authenticate(ApiKeys.generate()))
        .isInstanceOf(ApiKeyAuthenticator.Busy.class);

    held.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(Arrays.asList(outcomes))
        .filteredOn(o -> o instanceof ApiKeyAuthenticator.Refused)
        .hasSize(2);
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
