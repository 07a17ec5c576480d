package dev.once.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A business table for inbox tests: a consumer's effect is one increment of {@code (message,
 * consumer)}'s counter, written in the consumer's transaction. Exactly-once means every counter is
 * 1. Tests isolate themselves by using fresh message ids.
 */
public final class EffectTable {
  private final DataSource dataSource;

  /** Creates the table in {@code dataSource}'s database if it does not exist. */
  public EffectTable(DataSource dataSource) {
    this.dataSource = dataSource;
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          """
          CREATE TABLE IF NOT EXISTS public.test_effect (
              message_id uuid NOT NULL,
              consumer   text NOT NULL,
              applied    int  NOT NULL,
              PRIMARY KEY (message_id, consumer))
          """);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One effect: parameters message id, consumer. */
  public static final String APPLY =
      """
      INSERT INTO public.test_effect (message_id, consumer, applied) VALUES (?, ?, 1)
      ON CONFLICT (message_id, consumer)
      DO UPDATE SET applied = test_effect.applied + 1
      """;

  /** Applies one effect in {@code tx}. */
  public static void apply(Connection tx, UUID messageId, String consumer) throws SQLException {
    try (PreparedStatement ps = tx.prepareStatement(APPLY)) {
      ps.setObject(1, messageId);
      ps.setString(2, consumer);
      ps.executeUpdate();
    }
  }

  /** How many times {@code consumer} applied {@code messageId}, committed. */
  public int applied(UUID messageId, String consumer) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT applied FROM public.test_effect WHERE message_id = ? AND consumer = ?")) {
      ps.setObject(1, messageId);
      ps.setString(2, consumer);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getInt(1) : 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
