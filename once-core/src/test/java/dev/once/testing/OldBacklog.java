package dev.once.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Outbox rows of one type that no handler takes, due an hour ago: what a relay an hour behind
 * leaves, so that the outbox's load shedding turns on. Each row is its own aggregate, so every row
 * is due. {@link #clear} removes them again.
 */
public final class OldBacklog {
  private final DataSource dataSource;
  private final String type;

  /** The backlog of {@code type} in {@code dataSource}'s outbox. */
  public OldBacklog(DataSource dataSource, String type) {
    this.dataSource = dataSource;
    this.type = type;
  }

  /** Appends {@code rows} rows, each of an aggregate of its own, due and created an hour ago. */
  public void add(int rows) {
    update(
        """
        INSERT INTO once.outbox (message_id, type, aggregate_id, payload, next_attempt_at,
                                 created_at)
        SELECT gen_random_uuid(), ?, 'backlog-' || gen_random_uuid(), '{}',
               now() - interval '1 hour', now() - interval '1 hour'
          FROM generate_series(1, ?)
        """,
        rows);
  }

  /** Deletes every row of the backlog's type. */
  public void clear() {
    update("DELETE FROM once.outbox WHERE type = ?", null);
  }

  private void update(String sql, Integer rows) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, type);
      if (rows != null) {
        s.setInt(2, rows);
      }
      s.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
