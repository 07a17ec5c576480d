package dev.once.shop.bench;

import dev.once.embedded.EmbeddedPostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A wait-event profile of the shop's database sessions (issue 38's "profile where a goal is
 * missed"): while it runs, a thread reads {@code pg_stat_activity} every 10 ms over a connection to
 * database {@code postgres}, and counts each session of database {@code shop} by what it is doing:
 * its state, its wait event (a lock, the client, the WAL), and the start of its statement. The
 * summary is each such kind's share of the session samples and the mean number of sessions in it:
 * where the shop's database time goes, including the time its transactions hold locks while the
 * application thinks ({@code idle in transaction}). A thread of its own; {@link #stop} ends it.
 */
final class WaitEvents {
  private static final String SAMPLE =
      """
      SELECT state, coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS wait,
             regexp_replace(left(query, 70), '\\s+', ' ', 'g') AS query
      FROM pg_stat_activity
      WHERE datname = 'shop' AND backend_type = 'client backend' AND state <> 'idle'
      """;

  private final Connection connection;
  private final Map<String, Long> kinds = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;
  private long samples;

  private WaitEvents(Connection connection) {
    this.connection = connection;
    this.thread = new Thread(this::run, "bench-wait-events");
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts sampling the sessions of the embedded server under {@code pgData}. */
  static WaitEvents start(java.nio.file.Path pgData) throws SQLException {
    EmbeddedPostgresServer server =
        EmbeddedPostgresServer.find(pgData)
            .orElseThrow(() -> new IllegalStateException("no embedded PostgreSQL"));
    return new WaitEvents(
        DriverManager.getConnection(
            server.jdbcUrl("postgres"),
            EmbeddedPostgresServer.USERNAME,
            server.superuser().password()));
  }

  private void run() {
    try (Statement statement = connection.createStatement()) {
      while (running) {
        try (ResultSet rs = statement.executeQuery(SAMPLE)) {
          synchronized (kinds) {
            samples++;
            while (rs.next()) {
              String kind =
                  rs.getString("state")
                      + " | "
                      + rs.getString("wait")
                      + " | "
                      + rs.getString("query");
              kinds.merge(kind, 1L, Long::sum);
            }
          }
        }
        Thread.sleep(10);
      }
    } catch (SQLException | InterruptedException e) {
      // stopped
    }
  }

  /** Stops sampling; the kinds with the most session samples, as lines of a report. */
  List<String> stop(int top) throws Exception {
    running = false;
    thread.join(5_000);
    connection.close();
    List<String> lines = new ArrayList<>();
    synchronized (kinds) {
      long sessions = kinds.values().stream().mapToLong(Long::longValue).sum();
      lines.add(
          String.format(
              "wait events: %d samples, %.2f non-idle sessions on average",
              samples, samples == 0 ? 0.0 : (double) sessions / samples));
      kinds.entrySet().stream()
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .limit(top)
          .forEach(
              e ->
                  lines.add(
                      String.format(
                          "%5.1f%% (%.2f sessions)  %s",
                          100.0 * e.getValue() / Math.max(1, sessions),
                          (double) e.getValue() / Math.max(1, samples),
                          e.getKey())));
    }
    return lines;
  }
}
