package dev.once.shop.clients;

import static dev.once.shop.persistence.Timestamps.utc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** SQL of the client aggregate (clients and their API keys), one statement per operation. */
@Repository
class ClientRepository {
  /** Client and key in one statement, so that a client never exists without its key. */
  static final String INSERT_CLIENT_WITH_KEY =
      """
      WITH new_client AS (
          INSERT INTO client (id, name, created_at)
          VALUES (:id, :name, :now)
          RETURNING id
      )
      INSERT INTO api_key (key_hash, client_id, created_at)
      SELECT :keyHash, new_client.id, :now FROM new_client
      """;

  /** Idempotent: a second disable keeps the first timestamp. */
  static final String DISABLE =
      """
      UPDATE client SET disabled_at = COALESCE(disabled_at, :now)
      WHERE id = :id
      RETURNING id, name, disabled_at
      """;

  /** Primary-key lookup of the hash, then of the client: two index probes, no cache. */
  static final String ACTIVE_CLIENT_BY_KEY_HASH =
      """
      SELECT c.id
      FROM api_key k
      JOIN client c ON c.id = k.client_id
      WHERE k.key_hash = :keyHash AND c.disabled_at IS NULL
      """;

  private final JdbcClient jdbc;

  ClientRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  void insert(String id, String name, byte[] keyHash, Instant now) {
    jdbc.sql(INSERT_CLIENT_WITH_KEY)
        .param("id", id)
        .param("name", name)
        .param("keyHash", keyHash)
        .param("now", utc(now))
        .update();
  }

  Optional<Client> disable(String id, Instant now) {
    return jdbc.sql(DISABLE).param("id", id).param("now", utc(now)).query(this::client).optional();
  }

  Optional<String> activeClientByKeyHash(byte[] keyHash) {
    return jdbc.sql(ACTIVE_CLIENT_BY_KEY_HASH)
        .param("keyHash", keyHash)
        .query(String.class)
        .optional();
  }

  private Client client(ResultSet rs, int row) throws SQLException {
    OffsetDateTime disabledAt = rs.getObject("disabled_at", OffsetDateTime.class);
    return new Client(
        rs.getString("id"),
        rs.getString("name"),
        Optional.ofNullable(disabledAt).map(OffsetDateTime::toInstant));
  }
}
