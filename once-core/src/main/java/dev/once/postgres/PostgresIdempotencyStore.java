package dev.once.postgres;

import dev.once.idempotency.Fingerprint;
import dev.once.idempotency.IdempotencyScope;
import dev.once.idempotency.IdempotencyStore;
import dev.once.idempotency.KeyState;
import dev.once.idempotency.StoredKey;
import dev.once.idempotency.StoredResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** {@link IdempotencyStore} on the {@code once.idempotency_key} table; prepared statements only. */
final class PostgresIdempotencyStore implements IdempotencyStore {

  @Override
  public Attempt claim(
      Connection tx, IdempotencyScope scope, Fingerprint fingerprint, Instant now, Duration lease)
      throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.CLAIM)) {
      ps.setLong(1, lease.toMillis());
      ps.setString(2, lease.toMillis() + "ms");
      ps.setString(3, scope.clientId());
      ps.setString(4, scope.key().value());
      ps.setLong(5, scope.lockId());
      ps.setString(6, scope.clientId());
      ps.setString(7, scope.key().value());
      ps.setBytes(8, fingerprint.toBytes());
      ps.setObject(9, utc(now));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (rs.getString("state") != null) {
          return new Attempt.Found(storedKey(scope, rs));
        }
        if (rs.getBoolean("inserted")) {
          return new Attempt.Inserted();
        }
        if (!rs.getBoolean("locked")) {
          return new Attempt.LockedOut();
        }
      }
    }
    // Locked, but another transaction committed the key after this statement's snapshot.
    return new Attempt.Found(select(tx, scope));
  }

  @Override
  public boolean tryLock(Connection tx, IdempotencyScope scope) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.TRY_LOCK)) {
      ps.setLong(1, scope.lockId());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static StoredKey select(Connection tx, IdempotencyScope scope) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.SELECT_ONE)) {
      ps.setString(1, scope.clientId());
      ps.setString(2, scope.key().value());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          // The conflicting row was deleted between the claim and this read (a purge); a benign
          // race that the client resolves by retrying.
          throw new SQLException("idempotency key vanished during claim", "40001");
        }
        return storedKey(scope, rs);
      }
    }
  }

  private static StoredKey storedKey(IdempotencyScope scope, ResultSet rs) throws SQLException {
    KeyState state = KeyState.fromDb(rs.getString("state"));
    StoredResponse response = null;
    Instant expiresAt = null;
    if (state == KeyState.COMPLETED) {
      response =
          StoredResponse.of(
              rs.getInt("status_code"),
              rs.getString("content_type"),
              rs.getString("location"),
              rs.getBytes("body"));
      expiresAt = rs.getObject("expires_at", OffsetDateTime.class).toInstant();
    }
    return new StoredKey(
        scope, Fingerprint.fromBytes(rs.getBytes("fingerprint")), state, response, expiresAt);
  }

  @Override
  public boolean reclaimExpired(
      Connection tx, IdempotencyScope scope, Fingerprint fingerprint, Instant now)
      throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.RECLAIM_EXPIRED)) {
      OffsetDateTime ts = utc(now);
      ps.setBytes(1, fingerprint.toBytes());
      ps.setObject(2, ts);
      ps.setString(3, scope.clientId());
      ps.setString(4, scope.key().value());
      ps.setObject(5, ts);
      return ps.executeUpdate() == 1;
    }
  }

  @Override
  public boolean complete(
      Connection tx,
      IdempotencyScope scope,
      StoredResponse response,
      Instant completedAt,
      Instant expiresAt)
      throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.COMPLETE)) {
      ps.setInt(1, response.status());
      ps.setString(2, response.contentType());
      ps.setString(3, response.location());
      ps.setBytes(4, response.body());
      ps.setObject(5, utc(completedAt));
      ps.setObject(6, utc(expiresAt));
      ps.setString(7, scope.clientId());
      ps.setString(8, scope.key().value());
      return ps.executeUpdate() == 1;
    }
  }

  @Override
  public int deleteExpired(Connection connection, Instant now, int limit) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(IdempotencySql.DELETE_EXPIRED)) {
      ps.setObject(1, utc(now));
      ps.setInt(2, limit);
      return ps.executeUpdate();
    }
  }

  static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
