package dev.once.spring.outbox;

import dev.once.outbox.Completion;
import dev.once.outbox.Outbox;
import dev.once.outbox.OutboxEntry;
import dev.once.outbox.OutboxMessage;
import dev.once.outbox.OutboxOverloadedException;
import dev.once.spring.internal.OnceTracing;
import dev.once.tracing.TraceContext;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends outbox messages in the current Spring transaction, so a message exists if and only if the
 * business writes around it commit. Inside an idempotent request that is the request's own
 * transaction. Once the transaction commits, the relay is woken (once per transaction, however many
 * messages it appended), so delivery does not wait for the next poll; a rollback wakes nothing.
 * With load shedding on ({@link OutboxLoadShedding}), an append is refused while the relay is too
 * far behind. With a tracer ({@code dev.once.spring.tracing}), a message without a trace context of
 * its own is stored with the current span's, so its delivery continues that trace. Thread-safe.
 */
public final class TransactionalOutbox {
  private final Outbox outbox;
  private final DataSource dataSource;
  private final RelayWakeUp relay;
  private final Predicate<String> consumed;
  private final OutboxLoadShedding shedding;
  private final OnceTracing tracing;

  TransactionalOutbox(Outbox outbox, DataSource dataSource) {
    this(outbox, dataSource, RelayWakeUp.NONE);
  }

  TransactionalOutbox(Outbox outbox, DataSource dataSource, RelayWakeUp relay) {
    this(outbox, dataSource, relay, type -> true);
  }

  /**
   * @param consumed whether an event type has a consumer (an inbox consumer in this application, or
   *     a transport that carries it elsewhere); see {@link #publish}
   */
  TransactionalOutbox(
      Outbox outbox, DataSource dataSource, RelayWakeUp relay, Predicate<String> consumed) {
    this(outbox, dataSource, relay, consumed, OutboxLoadShedding.off());
  }

  /**
   * @param consumed as above
   * @param shedding consulted before every append; {@link OutboxLoadShedding#off()} never refuses
   */
  TransactionalOutbox(
      Outbox outbox,
      DataSource dataSource,
      RelayWakeUp relay,
      Predicate<String> consumed,
      OutboxLoadShedding shedding) {
    this(outbox, dataSource, relay, consumed, shedding, OnceTracing.NONE);
  }

  /**
   * @param consumed as above
   * @param shedding as above
   * @param tracing where the trace context of an appended message comes from, when it has none
   */
  TransactionalOutbox(
      Outbox outbox,
      DataSource dataSource,
      RelayWakeUp relay,
      Predicate<String> consumed,
      OutboxLoadShedding shedding,
      OnceTracing tracing) {
    this.outbox = outbox;
    this.dataSource = dataSource;
    this.relay = Objects.requireNonNull(relay, "relay");
    this.consumed = Objects.requireNonNull(consumed, "consumed");
    this.shedding = Objects.requireNonNull(shedding, "shedding");
    this.tracing = Objects.requireNonNull(tracing, "tracing");
  }

  /**
   * Publishes an event in the current transaction: appends it, like {@link #append}, if anything
   * consumes its type, and writes nothing otherwise. An event is a fact for whoever listens (unlike
   * a command such as a provider call, which must always be delivered); writing and then delivering
   * it to nobody would only cost the request a statement and the relay a claim and a completion.
   *
   * @return the appended entry, or empty if no consumer takes the type
   * @throws IllegalStateException as {@link #append}
   * @throws OutboxOverloadedException as {@link #append}, only if something consumes the type
   */
  public Optional<OutboxEntry> publish(OutboxMessage event) {
    if (!consumed.test(event.type())) {
      if (!TransactionSynchronizationManager.isActualTransactionActive()) {
        throw new IllegalStateException(
            "TransactionalOutbox.publish needs an active transaction (e.g. @Transactional)");
      }
      return Optional.empty();
    }
    return Optional.of(append(event));
  }

  /**
   * Publishes {@code events} in the current transaction, in order, each as {@link #publish} would:
   * the events of a type nothing consumes are not written, the others are appended in one round
   * trip ({@link Outbox#appendAll}), with load shedding checked once. For a batch consumer that
   * publishes an event per message it applied: one statement instead of one per event, inside the
   * transaction's locks.
   *
   * @return per event, in order, its entry, or empty if no consumer takes its type
   * @throws IllegalStateException as {@link #append}
   * @throws OutboxOverloadedException as {@link #append}, only if something consumes a type
   */
  public List<Optional<OutboxEntry>> publishAll(List<OutboxMessage> events) {
    requireTransaction("publishAll");
    List<OutboxMessage> written = new ArrayList<>(events.size());
    for (OutboxMessage event : events) {
      if (consumed.test(event.type())) {
        written.add(stamped(event));
      }
    }
    List<OutboxEntry> entries = List.of();
    if (!written.isEmpty()) {
      shedding.check();
      Connection connection = DataSourceUtils.getConnection(dataSource);
      try {
        entries = outbox.appendAll(connection, written);
        wakeUpAfterCommit();
      } finally {
        DataSourceUtils.releaseConnection(connection, dataSource);
      }
    }
    List<Optional<OutboxEntry>> published = new ArrayList<>(events.size());
    int next = 0;
    for (OutboxMessage event : events) {
      published.add(
          consumed.test(event.type()) ? Optional.of(entries.get(next++)) : Optional.empty());
    }
    return published;
  }

  /**
   * Appends {@code message} in the current transaction, with the current span's trace context if it
   * has none of its own and the application has a tracer.
   *
   * @throws IllegalStateException if no Spring transaction is active: a message written outside a
   *     transaction could be delivered for an effect that never committed
   * @throws OutboxOverloadedException if load shedding refuses new work now (never for a relay
   *     handler's or an inbox consumer's appends); nothing was appended and the transaction must
   *     roll back. The starter answers it 503 with {@code Retry-After}.
   */
  public OutboxEntry append(OutboxMessage message) {
    requireTransaction("append");
    shedding.check();
    OutboxMessage stamped = stamped(message);
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      OutboxEntry entry = outbox.append(connection, stamped);
      wakeUpAfterCommit();
      return entry;
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  /**
   * Completes, in the current transaction, the outbox row whose handler runs this transaction (an
   * {@link OutboxHandler} that overrides {@code handle(row, completion)}): the handler's writes and
   * the row's completion commit together, one commit instead of two. {@link Completion#NONE} does
   * nothing.
   *
   * @throws dev.once.outbox.ClaimLostException if the relay no longer holds the row: let it
   *     propagate, so the transaction rolls back
   * @throws IllegalStateException if no Spring transaction is active
   */
  public void completeInTransaction(Completion completion) {
    Objects.requireNonNull(completion, "completion");
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "TransactionalOutbox.completeInTransaction needs an active transaction (e.g."
              + " @Transactional)");
    }
    if (completion == Completion.NONE) {
      return;
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      completion.completeIn(connection);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  /** {@code message} with the current span's trace context if it has none of its own. */
  private OutboxMessage stamped(OutboxMessage message) {
    if (message.trace() == null) {
      TraceContext current = tracing.current();
      if (current != null) {
        return message.withTrace(current);
      }
    }
    return message;
  }

  private static void requireTransaction(String method) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalStateException(
          "TransactionalOutbox." + method + " needs an active transaction (e.g. @Transactional)");
    }
  }

  private void wakeUpAfterCommit() {
    if (relay == RelayWakeUp.NONE || !TransactionSynchronizationManager.isSynchronizationActive()) {
      return;
    }
    for (TransactionSynchronization registered :
        TransactionSynchronizationManager.getSynchronizations()) {
      if (registered instanceof WakeUpAfterCommit wake && wake.owner == this) {
        return;
      }
    }
    TransactionSynchronizationManager.registerSynchronization(new WakeUpAfterCommit(this));
  }

  /** Wakes the relay after the commit of a transaction that appended. */
  private static final class WakeUpAfterCommit implements TransactionSynchronization {
    private final TransactionalOutbox owner;

    WakeUpAfterCommit(TransactionalOutbox owner) {
      this.owner = owner;
    }

    @Override
    public void afterCommit() {
      owner.relay.wakeUp();
    }
  }
}
