package dev.once.shop.clients;

import dev.once.log.ThrottledLog;
import dev.once.shop.web.DatabaseUnavailable;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
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
 *       requests it sends, it holds at most that many connections; when they are all busy, the next
 *       unfamiliar key is answered 503 with {@code Retry-After} at once, without a lookup (not 401:
 *       the key may be a real one, whose client must retry, not give up). Familiar keys never wait
 *       for these permits. A familiar key that fails is unfamiliar again.
 * </ul>
 *
 * <p>Both sets live in this process. With several shop instances, a key created on one is
 * unfamiliar on the others until it has authenticated there once, so during a flood its first
 * requests there may be answered 503. Thread-safe.
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
  private final Semaphore unfamiliarLookups;
  private final int permits;
  private final RecentKeyHashes refused;
  private final RecentKeyHashes familiar;
  private final ThrottledLog busyLog;

  /**
   * @param lookup the active client of a key hash, from the database
   * @param unfamiliarLookups how many lookups of unfamiliar keys may run at once
   * @param clock the time source of the remembered hashes and of the log
   */
  ApiKeyAuthenticator(
      Function<byte[], Optional<String>> lookup, int unfamiliarLookups, Clock clock) {
    if (unfamiliarLookups < 1) {
      throw new IllegalArgumentException("unfamiliarLookups must be at least 1");
    }
    this.lookup = lookup;
    this.permits = unfamiliarLookups;
    this.unfamiliarLookups = new Semaphore(unfamiliarLookups);
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
    if (!unfamiliarLookups.tryAcquire()) {
      // Not waiting: a flood must not hold request threads either.
      busyLog.warn(
          "unfamiliar-key-lookups",
          () ->
              "All "
                  + permits
                  + " lookups for API keys not seen working recently are busy (a flood of unknown"
                  + " keys?); answered 503 service-unavailable without a lookup");
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
    return permits;
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
