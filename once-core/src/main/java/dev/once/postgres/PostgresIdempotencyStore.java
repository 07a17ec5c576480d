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
  private static final Attempt LOCKED_OUT = new Attempt.LockedOut();

  @Override
  public Attempt claim(Connection tx, IdempotencyScope scope, Duration lease) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.CLAIM)) {
      ps.setString(1, scope.clientId());
      ps.setString(2, scope.key().value());
      ps.setLong(3, scope.lockId());
      ps.setLong(4, lease.toMillis());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        boolean locked = rs.getBoolean("locked");
        Instant now = SqlTimes.instant(rs.getLong("now_micros"));
        if (rs.getString("state") != null) {
          return new Attempt.Found(storedKey(scope, rs), locked, now);
        }
        return locked ? new Attempt.Locked(now) : LOCKED_OUT;
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
  public boolean complete(Connection tx, Completion completion) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.COMPLETE)) {
      bind(ps, completion);
      return ps.executeUpdate() == 1;
    }
  }

  @Override
  public boolean completeAndCommit(Connection tx, Completion completion) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(IdempotencySql.COMPLETE_AND_COMMIT)) {
      bind(ps, completion);
      ps.execute();
      return true;
    } catch (SQLException e) {
      if (IdempotencySql.KEY_TAKEN.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  private static void bind(PreparedStatement ps, Completion completion) throws SQLException {
    IdempotencyScope scope = completion.scope();
    StoredResponse response = completion.response();
    ps.setString(1, scope.clientId());
    ps.setString(2, scope.key().value());
    ps.setBytes(3, completion.fingerprint().toBytes());
    ps.setInt(4, response.status());
    ps.setString(5, response.contentType());
    ps.setString(6, response.location());
    ps.setBytes(7, response.body());
    ps.setLong(8, SqlTimes.micros(completion.claimedAt()));
    ps.setLong(9, SqlTimes.micros(completion.retention()));
    ps.setLong(10, scope.lockId());
  }

  @Override
  public int deleteExpired(Connection connection, int limit) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(IdempotencySql.DELETE_EXPIRED)) {
      ps.setInt(1, limit);
      return ps.executeUpdate();
    }
  }

  static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
