package dev.once.postgres;

import dev.once.outbox.ArchiveMaintenance;
import dev.once.outbox.DeadMessage;
import dev.once.outbox.NotBefore;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxException;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxRecord;
import dev.once.outbox.OutboxStats;
import dev.once.outbox.OutboxStore;
import dev.once.outbox.PausedType;
import dev.once.outbox.Replay;
import dev.once.outbox.ReplayRequest;
import dev.once.outbox.TypeCounts;
import dev.once.tracing.TraceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * {@link OutboxStore} on the {@code once.outbox} table. {@link #append} runs in the caller's
 * transaction; every other method is one statement in a short transaction of its own on a
 * connection from the {@link DataSource}. Stateless apart from the DataSource; thread-safe.
 *
 * <p>An append takes the transaction-scoped advisory lock {@code (}{@link
 * OutboxSql#AGGREGATE_LOCK_NAMESPACE}{@code , hashtext(aggregate_id))} in the same statement as its
 * insert, before the id is drawn: appends for one aggregate serialize until the appending
 * transaction ends, and unrelated aggregates that collide on the 32-bit hash wait briefly.
 */
final class PostgresOutboxStore implements OutboxStore {
  /** Longest {@code last_error} kept: a reason for operators, not a stack trace or a payload. */
  static final int MAX_ERROR_LENGTH = 1000;

  /** How long the archive's retention waits for the archive's lock before it tries again later. */
  static final int ARCHIVE_DROP_LOCK_TIMEOUT_MILLIS = 1000;

  private final DataSource dataSource;
  private final OutboxArchive archive;

  /** The statements that finish a row that is not kept: delete it, or move it to the archive. */
  private final Completions removing;

  /**
   * @param dataSource where the short transactions run; {@code null} for a store that only appends
   *     (the other methods then throw {@link IllegalStateException})
   */
  PostgresOutboxStore(DataSource dataSource) {
    this(dataSource, null);
  }

  /**
   * @param archive the archive mode, {@code null} for none: finished rows are deleted
   */
  PostgresOutboxStore(DataSource dataSource, OutboxArchive archive) {
    this.dataSource = dataSource;
    this.archive = archive;
    this.removing = archive == null ? Completions.DELETE : Completions.ARCHIVE;
  }

  /**
   * One way of completing rows: alone or a batch, in a short transaction of the store's own ({@code
   * async}) or in a handler's ({@code in}).
   */
  private record Completions(String one, String oneIn, String all, String allIn) {
    static final Completions KEEP =
        new Completions(
            OutboxSql.COMPLETE,
            OutboxSql.COMPLETE_IN,
            OutboxSql.COMPLETE_ALL,
            OutboxSql.COMPLETE_ALL_IN);
    static final Completions DELETE =
        new Completions(
            OutboxSql.COMPLETE_DELETE,
            OutboxSql.COMPLETE_DELETE_IN,
            OutboxSql.COMPLETE_ALL_DELETE,
            OutboxSql.COMPLETE_ALL_DELETE_IN);
    static final Completions ARCHIVE =
        new Completions(
            OutboxSql.COMPLETE_ARCHIVE,
            OutboxSql.COMPLETE_ARCHIVE_IN,
            OutboxSql.COMPLETE_ALL_ARCHIVE,
            OutboxSql.COMPLETE_ALL_ARCHIVE_IN);

    String one(boolean durable) {
      return durable ? oneIn : one;
    }

    String all(boolean durable) {
      return durable ? allIn : all;
    }
  }

  private Completions completions(boolean keep) {
    return keep ? Completions.KEEP : removing;
  }

  @Override
  public boolean archives() {
    return archive != null;
  }

  /**
   * Makes the archive's missing day partitions, then drops those past its retention (waiting at
   * most {@value #ARCHIVE_DROP_LOCK_TIMEOUT_MILLIS} ms for the archive's lock): two short
   * transactions. Nothing without the archive mode.
   */
  @Override
  public ArchiveMaintenance maintainArchive() {
    if (archive == null) {
      return new ArchiveMaintenance(0, 0);
    }
    int made =
        number(
            "Could not make the outbox archive's partitions.",
            OutboxSql.ARCHIVE_PREPARE,
            archive.daysAhead(),
            archive.retentionDays());
    int dropped =
        number(
            "Could not drop the outbox archive's expired partitions.",
            OutboxSql.ARCHIVE_DROP,
            archive.retentionDays(),
            ARCHIVE_DROP_LOCK_TIMEOUT_MILLIS);
    return new ArchiveMaintenance(made, dropped);
  }

  @Override
  public OutboxEntry append(Connection tx, UUID messageId, OutboxMessage message) {
    try (PreparedStatement ps = tx.prepareStatement(OutboxSql.APPEND)) {
      bindAppend(ps, messageId, message);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return new OutboxEntry(rs.getLong(1), messageId);
      }
    } catch (SQLException e) {
      throw new OutboxException("Could not append to the outbox.", e);
    }
  }

  /**
   * Appends the messages in order as one JDBC batch of {@link OutboxSql#APPEND_ROW}: each row
   * exactly as {@link #append} writes it (its aggregate's lock, held behind a dead row, its due
   * time), in one round trip instead of one per message.
   */
  @Override
  public List<OutboxEntry> appendAll(
      Connection tx, List<UUID> messageIds, List<OutboxMessage> messages) {
    if (messageIds.size() != messages.size()) {
      throw new IllegalArgumentException("one message id per message");
    }
    if (messages.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement ps = tx.prepareStatement(OutboxSql.APPEND_ROW, new String[] {"id"})) {
      for (int i = 0; i < messages.size(); i++) {
        bindAppend(ps, messageIds.get(i), messages.get(i));
        ps.addBatch();
      }
      ps.executeBatch();
      List<OutboxEntry> entries = new ArrayList<>(messages.size());
      try (ResultSet rs = ps.getGeneratedKeys()) {
        for (UUID messageId : messageIds) {
          if (!rs.next()) {
            throw new IllegalStateException("the outbox returned fewer ids than it appended rows");
          }
          entries.add(new OutboxEntry(rs.getLong(1), messageId));
        }
      }
      return entries;
    } catch (SQLException e) {
      throw new OutboxException("Could not append to the outbox.", e);
    }
  }

  private static void bindAppend(PreparedStatement ps, UUID messageId, OutboxMessage message)
      throws SQLException {
    ps.setObject(1, messageId);
    ps.setString(2, message.type());
    ps.setString(3, message.aggregateId());
    ps.setString(4, message.payloadJson());
    TraceContext trace = message.trace();
    ps.setString(5, trace == null ? null : trace.traceparent());
    ps.setString(6, trace == null ? null : trace.tracestate());
    NotBefore notBefore = message.notBefore();
    Duration delay = notBefore == null ? null : notBefore.delay();
    ps.setLong(7, delay == null ? 0 : TimeUnit.NANOSECONDS.toMicros(delay.toNanos()));
    Instant at = notBefore == null ? null : notBefore.at();
    ps.setObject(8, at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
    ps.setString(9, message.type());
    ps.setString(10, message.aggregateId());
  }

  @Override
  public List<OutboxRecord> claim(UUID claimId, List<String> types, int limit, Duration lease) {
    return inShortTransaction(
        "Could not claim outbox rows.",
        c -> {
          try (Statement settings = c.createStatement()) {
            settings.execute(OutboxSql.CLAIM_SETTINGS);
          }
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.CLAIM)) {
            ps.setArray(1, c.createArrayOf("text", types.toArray()));
            ps.setInt(2, limit);
            ps.setObject(3, claimId);
            ps.setLong(4, SqlTimes.micros(lease));
            List<Claimed> claimed = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                claimed.add(
                    new Claimed(
                        new OutboxRecord(
                            rs.getLong(1),
                            rs.getObject(2, UUID.class),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getString(5),
                            rs.getInt(6),
                            instant(rs, 7),
                            trace(rs.getString(9), rs.getString(10))),
                        instant(rs, 8)));
              }
            }
            // UPDATE ... RETURNING comes back in no particular order: hand rows out in due order.
            claimed.sort(
                (a, b) ->
                    a.due.equals(b.due)
                        ? Long.compare(a.record.id(), b.record.id())
                        : a.due.compareTo(b.due));
            return claimed.stream().map(Claimed::record).toList();
          }
        });
  }

  private record Claimed(OutboxRecord record, Instant due) {}

  /** The stored context, or {@code null} when there is none or it is not a valid one. */
  private static TraceContext trace(String traceparent, String tracestate) {
    return traceparent == null ? null : TraceContext.parse(traceparent, tracestate).orElse(null);
  }

  @Override
  public boolean complete(long id, UUID claimId, boolean keep) {
    return update("Could not complete an outbox row.", completions(keep).one(false), id, claimId);
  }

  @Override
  public boolean complete(Connection tx, long id, UUID claimId, boolean keep, boolean durable) {
    String sql = completions(keep).one(durable);
    try (PreparedStatement ps = tx.prepareStatement(sql)) {
      ps.setLong(1, id);
      ps.setObject(2, claimId);
      return checked(ps.executeUpdate());
    } catch (SQLException e) {
      throw new OutboxException("Could not complete an outbox row.", e);
    }
  }

  @Override
  public Set<Long> completeAll(long[] ids, UUID[] claimIds, boolean keep) {
    requireSameLength(ids, claimIds);
    if (ids.length == 0) {
      return Set.of();
    }
    return inAutoCommit(
        "Could not complete outbox rows.",
        c -> completeAll(c, completions(keep).all(false), ids, claimIds));
  }

  @Override
  public Set<Long> completeAll(
      Connection tx, long[] ids, UUID[] claimIds, boolean keep, boolean durable) {
    requireSameLength(ids, claimIds);
    if (ids.length == 0) {
      return Set.of();
    }
    String sql = completions(keep).all(durable);
    try {
      return completeAll(tx, sql, ids, claimIds);
    } catch (SQLException e) {
      throw new OutboxException("Could not complete outbox rows.", e);
    }
  }

  /** One batch completion statement; the ids it returns are the rows it completed. */
  private static Set<Long> completeAll(Connection c, String sql, long[] ids, UUID[] claimIds)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setArray(1, c.createArrayOf("bigint", boxed(ids)));
      ps.setArray(2, c.createArrayOf("uuid", claimIds));
      Set<Long> done = new HashSet<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          done.add(rs.getLong(1));
        }
      }
      return done;
    }
  }

  private static void requireSameLength(long[] ids, UUID[] claimIds) {
    if (ids.length != claimIds.length) {
      throw new IllegalArgumentException("a batch needs one claim id per row id");
    }
  }

  private static Long[] boxed(long[] ids) {
    Long[] boxed = new Long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      boxed[i] = ids[i];
    }
    return boxed;
  }

  @Override
  public int renew(long[] ids, UUID[] claimIds, Duration lease) {
    requireSameLength(ids, claimIds);
    if (ids.length == 0) {
      return 0;
    }
    return inAutoCommit(
        "Could not renew the lease of outbox rows.",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.RENEW)) {
            ps.setLong(1, SqlTimes.micros(lease));
            ps.setArray(2, c.createArrayOf("bigint", boxed(ids)));
            ps.setArray(3, c.createArrayOf("uuid", claimIds));
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public boolean retryLater(long id, UUID claimId, Duration delay, String error) {
    return update(
        "Could not release an outbox row for a retry.",
        OutboxSql.RETRY_LATER,
        SqlTimes.micros(delay),
        storable(error),
        id,
        claimId);
  }

  @Override
  public boolean bury(long id, UUID claimId, String error) {
    // No column records the time of death; last_error says why, and the row keeps its created_at.
    return call("Could not bury an outbox row.", OutboxSql.BURY, id, claimId, storable(error));
  }

  @Override
  public boolean requeue(long id) {
    return call("Could not requeue an outbox row.", OutboxSql.REQUEUE, id);
  }

  /** One call of a function that answers a number, in a short transaction. */
  private int number(String failure, String sql, Object... parameters) {
    return first(failure, sql, rs -> rs.getInt(1), 0, parameters);
  }

  /** One call of a function that answers whether it changed the row, in a short transaction. */
  private boolean call(String failure, String sql, Object... parameters) {
    return first(failure, sql, rs -> rs.getBoolean(1), false, parameters);
  }

  /** The first row of a statement, read by {@code reader}, or {@code none} if there is none. */
  private <T> T first(
      String failure, String sql, RowReader<T> reader, T none, Object... parameters) {
    return inAutoCommit(
        failure,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, parameters);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? reader.read(rs) : none;
            }
          }
        });
  }

  @Override
  public boolean discard(long id) {
    return call("Could not discard an outbox row.", OutboxSql.DISCARD, id);
  }

  /**
   * Two short transactions: the pause, then the mark on the type's rows, which sees every row
   * appended before the pause committed (a later append marks its own).
   */
  @Override
  public boolean pause(String type, String pausedBy, String reason) {
    boolean paused =
        call("Could not pause a message type.", OutboxSql.PAUSE, type, pausedBy, reason);
    inAutoCommit(
        "Could not mark the rows of a paused type.",
        c -> execute(c, OutboxSql.MARK_PAUSED, type, type));
    return paused;
  }

  /** Two short transactions: the resume, then clearing the mark on the type's rows. */
  @Override
  public boolean resume(String type) {
    boolean resumed = call("Could not resume a message type.", OutboxSql.RESUME, type);
    inAutoCommit(
        "Could not release the rows of a resumed type.",
        c -> execute(c, OutboxSql.UNMARK_PAUSED, type, type));
    return resumed;
  }

  /**
   * One transaction: records the replay, or returns the record its id already has (as repeated);
   * counts the window (refused past {@code maxRows}, and then nothing is recorded); forgets the
   * consumer's inbox records of the window's messages, if a consumer is given; appends the copies;
   * and writes what it did into the record.
   */
  @Override
  public Replay replay(ReplayRequest request, int maxRows) {
    if (archive == null) {
      throw new IllegalStateException(
          "the outbox archive is off (once.outbox.archive.enabled): there is nothing to replay");
    }
    return inShortTransaction(
        "Could not replay from the outbox archive.",
        c -> {
          Instant requestedAt = null;
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.REPLAY_RECORD)) {
            bind(
                ps,
                request.id(),
                request.type(),
                timestamp(request.from()),
                timestamp(request.to()),
                request.aggregateId(),
                request.consumer(),
                request.requestedBy());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                requestedAt = instant(rs, 1);
              }
            }
          }
          if (requestedAt == null) {
            return findReplay(c, request.id());
          }
          Object[] window = {
            request.type(),
            timestamp(request.from()),
            timestamp(request.to()),
            timestamp(request.from()),
            request.aggregateId(),
            request.aggregateId()
          };
          long inWindow;
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.REPLAY_COUNT)) {
            bind(ps, window);
            ps.setInt(window.length + 1, maxRows + 1);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              inWindow = rs.getLong(1);
            }
          }
          if (inWindow > maxRows) {
            throw new IllegalArgumentException(
                "the window holds more than "
                    + maxRows
                    + " archived rows of "
                    + request.type()
                    + ": replay it in narrower windows");
          }
          long forgotten = 0;
          if (request.consumer() != null) {
            Object[] forget = new Object[window.length + 1];
            forget[0] = request.consumer();
            System.arraycopy(window, 0, forget, 1, window.length);
            forgotten = execute(c, OutboxSql.REPLAY_FORGET, forget);
          }
          long rows = execute(c, OutboxSql.REPLAY_APPEND, window);
          execute(c, OutboxSql.REPLAY_DONE, rows, forgotten, request.id());
          return new Replay(
              request.id(),
              request.type(),
              request.from(),
              request.to(),
              request.aggregateId(),
              request.consumer(),
              request.requestedBy(),
              requestedAt,
              rows,
              forgotten,
              false);
        });
  }

  private static Replay findReplay(Connection c, UUID id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(OutboxSql.REPLAY_FIND)) {
      ps.setObject(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return replay(rs, true);
      }
    }
  }

  private static Replay replay(ResultSet rs, boolean repeated) throws SQLException {
    return new Replay(
        rs.getObject(1, UUID.class),
        rs.getString(2),
        instant(rs, 3),
        instant(rs, 4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        instant(rs, 8),
        rs.getLong(9),
        rs.getLong(10),
        repeated);
  }

  @Override
  public List<Replay> replays(int limit) {
    return list("Could not read the replays.", OutboxSql.REPLAYS, rs -> replay(rs, false), limit);
  }

  private static OffsetDateTime timestamp(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  @Override
  public List<PausedType> paused() {
    return list(
        "Could not read the paused message types.",
        OutboxSql.PAUSED,
        rs -> new PausedType(rs.getString(1), instant(rs, 2), rs.getString(3), rs.getString(4)));
  }

  /** Reads every row of a query, in a short transaction. */
  private <T> List<T> list(String failure, String sql, RowReader<T> reader, Object... parameters) {
    return inAutoCommit(
        failure,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, parameters);
            List<T> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(reader.read(rs));
              }
            }
            return rows;
          }
        });
  }

  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  @Override
  public int releaseResumed() {
    return inAutoCommit(
        "Could not release the rows of resumed types.", c -> execute(c, OutboxSql.UNMARK_RESUMED));
  }

  private static int execute(Connection c, String sql, Object... parameters) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, parameters);
      return ps.executeUpdate();
    }
  }

  private static void bind(PreparedStatement ps, Object... parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      ps.setObject(i + 1, parameters[i]);
    }
  }

  @Override
  public List<DeadMessage> dead(long afterId, int limit) {
    return list(
        "Could not list dead outbox rows.",
        OutboxSql.DEAD,
        rs ->
            new DeadMessage(
                rs.getLong(1),
                rs.getObject(2, UUID.class),
                rs.getString(3),
                rs.getString(4),
                rs.getInt(5),
                rs.getString(6),
                instant(rs, 7)),
        afterId,
        limit);
  }

  @Override
  public List<TypeCounts> countsByType() {
    return list(
        "Could not count the outbox rows by type.",
        OutboxSql.COUNTS_BY_TYPE,
        rs -> new TypeCounts(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
  }

  @Override
  public Optional<String> deadPayload(long id) {
    return inAutoCommit(
        "Could not read a dead outbox row.",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.DEAD_PAYLOAD)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  /**
   * Deletes the oldest finished rows past the retention; in archive mode moves them to the archive
   * instead, after deleting those past the archive's own retention (they would be dropped with
   * their partition anyway, which may be gone). One or two statements, each its own short
   * transaction.
   */
  @Override
  public int purgeDelivered(Duration retention, int limit) {
    if (archive == null) {
      return purge(OutboxSql.PURGE_DELIVERED, retention, limit);
    }
    int expired = purge(OutboxSql.PURGE_DELIVERED, Duration.ofDays(archive.retentionDays()), limit);
    return expired + purge(OutboxSql.PURGE_TO_ARCHIVE, retention, limit - expired);
  }

  private int purge(String sql, Duration retention, int limit) {
    if (limit < 1) {
      return 0;
    }
    return inAutoCommit(
        "Could not purge delivered outbox rows.",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, SqlTimes.micros(retention));
            ps.setInt(2, limit);
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public OutboxStats stats() {
    return inAutoCommit(
        "Could not read the outbox statistics.",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.STATS)) {
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              OffsetDateTime oldestDue = rs.getObject(2, OffsetDateTime.class);
              Duration age =
                  oldestDue == null
                      ? Duration.ZERO
                      : Duration.between(oldestDue.toInstant(), instant(rs, 4));
              return new OutboxStats(
                  rs.getLong(1), age.isNegative() ? Duration.ZERO : age, rs.getLong(3));
            }
          }
        });
  }

  /** One statement that must change exactly one row: the compare-and-sets. */
  private boolean update(String failure, String sql, Object... parameters) {
    int changed =
        inAutoCommit(
            failure,
            c -> {
              try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, parameters);
                return ps.executeUpdate();
              }
            });
    return checked(changed);
  }

  private static boolean checked(int changed) {
    if (changed > 1) {
      // The predicates include the primary key: more than one row means the schema is not Once's.
      throw new IllegalStateException("an outbox compare-and-set changed " + changed + " rows");
    }
    return changed == 1;
  }

  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code work} as one short transaction: in auto-commit mode. */
  private <T> T inAutoCommit(String failure, Work<T> work) {
    return inTransaction(failure, true, work);
  }

  /**
   * Runs {@code work} as one short explicit transaction, committed here, so that {@code SET LOCAL}
   * settings of the work last exactly as long; the connection's auto-commit mode is restored.
   */
  private <T> T inShortTransaction(String failure, Work<T> work) {
    return inTransaction(failure, false, work);
  }

  private <T> T inTransaction(String failure, boolean autoCommit, Work<T> work) {
    if (dataSource == null) {
      throw new IllegalStateException(
          "this outbox store was made for appends only; use PostgresStores.outboxStore(DataSource)");
    }
    try (Connection c = dataSource.getConnection()) {
      boolean original = c.getAutoCommit();
      if (autoCommit && original) {
        return work.run(c);
      }
      if (original) {
        c.setAutoCommit(false);
      }
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        if (original) {
          c.setAutoCommit(true);
        }
      }
    } catch (SQLException e) {
      throw new OutboxException(failure, e);
    }
  }

  private static void rollbackQuietly(Connection c, Exception failure) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** {@code error} as {@code last_error} stores it: see {@link StoredText}. */
  static String storable(String error) {
    return StoredText.of(error, MAX_ERROR_LENGTH);
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    return rs.getObject(column, OffsetDateTime.class).toInstant();
  }

  @Override
  public Duration oldestClaimableAge() {
    return inShortTransaction(
        "Could not read the age of the oldest due outbox row.",
        c -> {
          try (Statement settings = c.createStatement()) {
            settings.execute(OutboxSql.CLAIM_SETTINGS);
          }
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.OLDEST_CLAIMABLE)) {
            try (ResultSet rs = ps.executeQuery()) {
              if (!rs.next()) {
                return Duration.ZERO;
              }
              Duration age = Duration.between(instant(rs, 1), instant(rs, 2));
              return age.isNegative() ? Duration.ZERO : age;
            }
          }
        });
  }

  @Override
  public Instant databaseTime() {
    return inAutoCommit(
        "Could not read the database's clock.",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(OutboxSql.DATABASE_TIME);
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return instant(rs, 1);
          }
        });
  }
}
