package dev.once.postgres;

import dev.once.inbox.InboxException;
import dev.once.inbox.InboxStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/** {@link InboxStore} on the {@code once.inbox} table; prepared statements only. Thread-safe. */
final class PostgresInboxStore implements InboxStore {
  private final DataSource dataSource;

  PostgresInboxStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public boolean claim(Connection tx, UUID messageId, String consumer) {
    try (PreparedStatement ps = tx.prepareStatement(InboxSql.CLAIM)) {
      ps.setObject(1, messageId);
      ps.setString(2, consumer);
      return ps.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new InboxException("Could not record the message in the inbox.", e);
    }
  }

  @Override
  public Set<UUID> claimAll(Connection tx, Collection<UUID> messageIds, String consumer) {
    try (PreparedStatement ps = tx.prepareStatement(InboxSql.CLAIM_ALL)) {
      ps.setString(1, consumer);
      ps.setArray(2, tx.createArrayOf("uuid", messageIds.toArray()));
      Set<UUID> fresh = new HashSet<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          fresh.add(rs.getObject(1, UUID.class));
        }
      }
      return fresh;
    } catch (SQLException e) {
      throw new InboxException("Could not record the messages in the inbox.", e);
    }
  }

  @Override
  public int purge(Duration retention, int limit) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      try (PreparedStatement ps = c.prepareStatement(InboxSql.PURGE)) {
        ps.setLong(1, SqlTimes.micros(retention));
        ps.setInt(2, limit);
        return ps.executeUpdate();
      }
    } catch (SQLException e) {
      throw new InboxException("Could not purge the inbox.", e);
    }
  }
}
