package dev.once.shop.clients;

import dev.once.log.ThrottledLog;
import dev.once.shop.problems.DatabaseUnavailable;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.LoggerFactory;

/**
 * Authenticates API keys so that keys which fail cannot take the database away from keys which
 * work. Every key is still looked up in the database on every request, so disabling a client takes
 * effect on its next request; what is bounded is what a failure costs:
 *
 * <ul>
 *   <li><b>A string that is not shaped like a key</b> ({@code shop_sk_} and 43 base64url
 *       characters) is refused without a lookup.
 *   <li><b>A refused key is refused again without a lookup</b> for {@link #REFUSED_FOR}: its hash
 *       (never the key) is kept in a set of at most {@link #REMEMBERED} hashes. This can never
 *       refuse a working key: keys are 256 random bits made by the shop and only become valid by
 *       being created (never by re-enabling a client, which the shop cannot do), so no hash seen
 *       before creation can be a new key's, and creation forgets the new hash anyway. A disabled
 *       client's key stays refused, as it should.
 *   <li><b>Lookups of unfamiliar keys share {@code unfamiliarLookups} connections</b> (a fifth of
 *       the pool): a key is familiar if it authenticated in this process within {@link
 *       #FAMILIAR_FOR}, or was created here. A flood of random keys is unfamiliar, so however many
 *       requests it sends, it holds at most that many connections. Familiar keys never wait for
 *       these permits. A familiar key that fails is unfamiliar again.
 *   <li><b>Requests of one unfamiliar key share one lookup</b>: while a lookup of a key runs, every
 *       other request with that key waits for its outcome instead of looking up again (at most
 *       {@link #FOLLOW_AT_MOST}), so a valid client's first burst after a restart, or on a new
 *       instance, needs one permit, not one per request.
 *   <li><b>A lookup waits for a permit</b> for at most {@code permitWait} (the shop uses the pool's
 *       connection time-out: what any request waits for a connection), holding no connection, and
 *       at most {@link LookupPermits#WAITERS_PER_PERMIT} per permit wait at once, so a flood cannot
 *       hold every request thread either. Only when no permit came in time, or the waiting room is
 *       full, is the request answered 503 with {@code Retry-After} without a lookup (not 401: the
 *       key may be a real one, whose client must retry, not give up).
 * </ul>
 *
 * <p>So a valid key is served on a healthy service; only under a flood of unknown keys (or a
 * database slower than the pool's time-out) can its first request on an instance get a 503. Both
 * sets live in this process. Thread-safe.
 */
final class ApiKeyAuthenticator {
  /** Most hashes each set remembers: under 2 MB each when full. */
  static final int REMEMBERED = 10_000;

  /** How long a refused key is refused without a lookup. */
  static final Duration REFUSED_FOR = Duration.ofMinutes(1);

  /** How long a key stays familiar after it last authenticated. */
  static final Duration FAMILIAR_FOR = Duration.ofHours(1);

  /** Share of the pool that lookups of unfamiliar keys may hold at once. */
  static final int POOL_SHARE_DIVISOR = 5;

  /** Longest a request waits for the outcome of another request's lookup of the same key. */
  static final Duration FOLLOW_AT_MOST = Duration.ofSeconds(30);

  /** The outcome of an authentication. */
  sealed interface Outcome {}

  /**
   * The key belongs to an active client.
   *
   * @param clientId the client's id
   */
  record Authenticated(String clientId) implements Outcome {}

  /** The key is unknown, or its client disabled: 401. */
  record Refused() implements Outcome {}

  /** Every permit for unfamiliar keys is taken: 503, retry. */
  record Busy() implements Outcome {}

  private static final Refused REFUSED = new Refused();
  private static final Busy BUSY = new Busy();

  private final Function<byte[], Optional<String>> lookup;
  private final LookupPermits unfamiliarLookups;
  private final ConcurrentHashMap<ByteBuffer, CompletableFuture<Outcome>> running =
      new ConcurrentHashMap<>();
  private final AtomicInteger following = new AtomicInteger();
  private final RecentKeyHashes refused;
  private final RecentKeyHashes familiar;
  private final ThrottledLog busyLog;

  /**
   * @param lookup the active client of a key hash, from the database
   * @param unfamiliarLookups how many lookups of unfamiliar keys may run at once
   * @param permitWait how long a lookup of an unfamiliar key may wait for one of them
   * @param clock the time source of the remembered hashes and of the log
   */
  ApiKeyAuthenticator(
      Function<byte[], Optional<String>> lookup,
      int unfamiliarLookups,
      Duration permitWait,
      Clock clock) {
    this.lookup = lookup;
    this.unfamiliarLookups = new LookupPermits(unfamiliarLookups, permitWait);
    this.refused = new RecentKeyHashes(REMEMBERED, REFUSED_FOR, clock);
    this.familiar = new RecentKeyHashes(REMEMBERED, FAMILIAR_FOR, clock);
    this.busyLog =
        new ThrottledLog(
            LoggerFactory.getLogger(ApiKeyAuthenticator.class),
            DatabaseUnavailable.LOG_INTERVAL,
            clock);
  }

  /** The permits for a pool of {@code poolSize} connections: a fifth, at least one. */
  static int unfamiliarLookupsFor(int poolSize) {
    return Math.max(1, poolSize / POOL_SHARE_DIVISOR);
  }

  /**
   * Authenticates {@code apiKey}.
   *
   * @throws org.springframework.dao.DataAccessException if the lookup fails
   */
  Outcome authenticate(String apiKey) {
    if (!ApiKeys.isWellFormed(apiKey)) {
      // Not a key the shop ever made: no lookup could find it.
      return REFUSED;
    }
    byte[] hash = ApiKeys.hash(apiKey);
    if (refused.contains(hash)) {
      return REFUSED;
    }
    if (familiar.contains(hash)) {
      return lookUp(hash);
    }
    return lookUpShared(hash);
  }

  /** Looks an unfamiliar key up once for every request that asks while the lookup runs. */
  private Outcome lookUpShared(byte[] hash) {
    ByteBuffer id = ByteBuffer.wrap(hash);
    CompletableFuture<Outcome> mine = new CompletableFuture<>();
    CompletableFuture<Outcome> other = running.putIfAbsent(id, mine);
    if (other != null) {
      following.incrementAndGet();
      try {
        return follow(other);
      } finally {
        following.decrementAndGet();
      }
    }
    try {
      Outcome outcome = lookUpWithPermit(hash);
      mine.complete(outcome);
      return outcome;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      running.remove(id, mine);
    }
  }

  /** The outcome of another request's lookup of the same key. */
  private static Outcome follow(CompletableFuture<Outcome> lookup) {
    try {
      return lookup.get(FOLLOW_AT_MOST.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      // The lookup failed (the database): this request fails the same way, answered 503.
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      return BUSY;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return BUSY;
    }
  }

  private Outcome lookUpWithPermit(byte[] hash) {
    if (!unfamiliarLookups.acquire()) {
      busyLog.warn(
          "unfamiliar-key-lookups",
          () ->
              "All "
                  + unfamiliarLookups.count()
                  + " lookups for API keys not seen working recently stayed busy (a flood of"
                  + " unknown keys?); answered 503 service-unavailable without a lookup");
      return BUSY;
    }
    try {
      return lookUp(hash);
    } finally {
      unfamiliarLookups.release();
    }
  }

  /** A key was just created: it is familiar, and never refused from before. */
  void keyCreated(byte[] hash) {
    refused.remove(hash);
    familiar.add(hash);
  }

  /** How many lookups of unfamiliar keys may run at once. */
  int unfamiliarLookups() {
    return unfamiliarLookups.count();
  }

  /** How many requests wait for another request's lookup of the same key now. */
  int following() {
    return following.get();
  }

  /** How many lookups of unfamiliar keys wait for a permit now. */
  int waitingForPermits() {
    return unfamiliarLookups.waiting();
  }

  private Outcome lookUp(byte[] hash) {
    Optional<String> client = lookup.apply(hash);
    if (client.isPresent()) {
      familiar.add(hash);
      return new Authenticated(client.get());
    }
    familiar.remove(hash);
    refused.add(hash);
    return REFUSED;
  }
}
