package dev.once.shop.clients;

import dev.once.shop.persistence.Ids;
import dev.once.shop.persistence.Timestamps;
import dev.once.shop.problems.NotFoundException;
import dev.once.shop.problems.ShopProblem;
import java.time.Clock;
import java.util.Optional;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Creates and disables API clients. A created key is made familiar to the {@link
 * ApiKeyAuthenticator} at once, so it works even while a flood of unknown keys keeps the lookups of
 * unfamiliar keys busy; disabling needs nothing of it, since every key is still looked up on every
 * request. Thread-safe.
 */
@Service
public class ClientService {
  private final ClientRepository clients;
  private final ApiKeyAuthenticator authenticator;
  private final Clock clock;

  ClientService(ClientRepository clients, ApiKeyAuthenticator authenticator, Clock clock) {
    this.clients = clients;
    this.authenticator = authenticator;
    this.clock = clock;
  }

  /**
   * A new client and its API key, the only time the key is ever available: only its hash is kept.
   */
  @Transactional
  public NewClient create(String name) {
    String id = Ids.next(Ids.CLIENT);
    String apiKey = ApiKeys.generate();
    byte[] keyHash = ApiKeys.hash(apiKey);
    clients.insert(id, name, keyHash, Timestamps.now(clock));
    // Before commit is early enough: nobody has the key until this answer is sent, after commit.
    authenticator.keyCreated(keyHash);
    return new NewClient(new Client(id, name, Optional.empty()), apiKey);
  }

  /**
   * Disables the client: its keys fail from the next request on. Disabling twice is harmless.
   *
   * @throws NotFoundException {@code client-not-found}, also for an id that is not a client id
   */
  @Transactional
  public Client disable(String clientId) {
    if (!Ids.isWellFormed(Ids.CLIENT, clientId)) {
      // Not a client id at all: refused without a query.
      throw clientNotFound();
    }
    return clients
        .disable(clientId, Timestamps.now(clock))
        .orElseThrow(ClientService::clientNotFound);
  }

  private static NotFoundException clientNotFound() {
    // The id is not echoed: it can be anything the caller sent.
    return new NotFoundException(ShopProblem.CLIENT_NOT_FOUND, "No client exists with this id.");
  }

  /**
   * A client just created, with its key in clear.
   *
   * @param client the client
   * @param apiKey the key, shown once
   */
  public record NewClient(Client client, String apiKey) {}
}
