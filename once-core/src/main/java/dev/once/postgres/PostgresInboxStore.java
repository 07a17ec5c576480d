package dev.once.postgres;

import dev.once.inbox.InboxException;
import dev.once.inbox.InboxStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;

/** {@link InboxStore} on the {@code once.inbox} table; prepared statements only. Thread-safe. */
final class PostgresInboxStore implements InboxStore {
  private final DataSource dataSource;

  PostgresInboxStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public boolean claim(Connection tx, UUID messageId, String consumer, Instant now) {
    try (PreparedStatement ps = tx.prepareStatement(InboxSql.CLAIM)) {
      ps.setObject(1, messageId);
      ps.setString(2, consumer);
      ps.setObject(3, PostgresIdempotencyStore.utc(now));
      return ps.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new InboxException("Could not record the message in the inbox.", e);
    }
  }

  @Override
  public int purge(Instant before, int limit) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      try (PreparedStatement ps = c.prepareStatement(InboxSql.PURGE)) {
        ps.setObject(1, PostgresIdempotencyStore.utc(before));
        ps.setInt(2, limit);
        return ps.executeUpdate();
      }
    } catch (SQLException e) {
      throw new InboxException("Could not purge the inbox.", e);
    }
  }
}
